export {
  type Advisor,
  type CallAdvisor,
  type CallAdvisorChain,
  isCallAdvisor,
  isMemoryAdvisor,
  isStreamAdvisor,
  isToolAdvisor,
  type MemoryAdvisor,
  type StreamAdvisor,
  type StreamAdvisorChain,
  type ToolAdvisor,
} from './advisor.js';
export {
  DefaultCallAdvisorChain,
  DefaultStreamAdvisorChain,
  sortAdvisors,
} from './advisor-chain.js';
export {
  DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER,
  DEFAULT_TOOL_CALLING_ADVISOR_ORDER,
  HIGHEST_PRECEDENCE,
  LOWEST_PRECEDENCE,
} from './advisor-order.js';
export type { ChatClientRequest, ChatClientResponse } from './chat-client-request.js';
export { ChatModelAdvisor } from './chat-model-advisor.js';
export { CONVERSATION_ID } from './conversation-id.js';
export type {
  DurablePendingApproval,
  DurableSteps,
  DurableToolCallOutcome,
  DurableToolCallStep,
} from './durable-steps.js';
export { TOOL_LOOP_TURN_ID } from './tool-loop-turn-id.js';
