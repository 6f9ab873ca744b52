export { AbortError, isAbortError } from './abort-error.js';
export { ChatModelError } from './chat-model-error.js';
export { InvalidToolInputError, type ToolInputIssue } from './invalid-tool-input-error.js';
export { MemoryError } from './memory-error.js';
export { NoSuchToolError } from './no-such-tool-error.js';
export { StructuredOutputError } from './structured-output-error.js';
export { throwIfAborted } from './throw-if-aborted.js';
export { ToolApprovalError, type ToolApprovalProblem } from './tool-approval-error.js';
export { ToolDefinitionError } from './tool-definition-error.js';
export { ToolExecutionError } from './tool-execution-error.js';
export {
  IllegalStateError,
  InvalidArgumentError,
  ToolloopError,
  type ToolloopErrorCode,
  type ToolloopErrorOptions,
} from './toolloop-error.js';
export { untilAborted } from './until-aborted.js';
