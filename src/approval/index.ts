export {
  type ApprovalBinding,
  approvalBindingOf,
  checkApprovalBinding,
} from './approval-binding.js';
export { type ApprovalTokenStore, processApprovalTokens } from './approval-token-store.js';
export { canonicalJson, hashToolArguments } from './canonical-json.js';
export { createPendingApproval, type PendingApprovalInput } from './create-pending-approval.js';
export { type ApprovalGateInput, findCallsNeedingApproval } from './find-calls-needing-approval.js';
export {
  checkSigningKey,
  hasValidSignature,
  MIN_SIGNING_KEY_BYTES,
  signPendingApproval,
} from './pending-approval-signature.js';
export {
  isPendingToolApprovalShape,
  PENDING_APPROVAL_METADATA_KEY,
  PENDING_TOOL_APPROVAL_TYPE,
  PENDING_TOOL_APPROVAL_VERSION,
  type PendingToolApproval,
  type PendingToolCall,
  pendingApprovalOf,
  TOOL_APPROVAL_RESUME,
  type ToolApprovalResume,
} from './pending-tool-approval.js';
export {
  applyApprovalDecisions,
  batchMessage,
  deniedToolCallText,
  type ResolvedToolApproval,
  readPendingApproval,
} from './resume-pending-approval.js';
export {
  type ApproveToolCallDecision,
  approveToolCall,
  type DenyToolCallDecision,
  denyToolCall,
  type ToolApprovalDecision,
} from './tool-approval-decision.js';
export {
  checkApprovalOptions,
  DEFAULT_APPROVAL_STATE_TTL_MS,
  type ToolApprovalOptions,
  ToolApprovalPolicies,
  type ToolApprovalPolicy,
  type ToolApprovalRequest,
} from './tool-approval-policy.js';
