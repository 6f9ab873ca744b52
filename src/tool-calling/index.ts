export {
  createToolCallingManager,
  DEFAULT_MAX_TOOL_RESULT_BYTES,
  DEFAULT_MAX_TOOL_RESULT_MEDIA_BYTES,
  DEFAULT_TOOL_CALL_CONCURRENCY,
  type ToolCallingManagerOptions,
  type UnknownToolBehavior,
} from './create-tool-calling-manager.js';
export {
  ToolCallLimitExceededError,
  type ToolCallLimitExceededErrorOptions,
} from './tool-call-limit-exceeded-error.js';
export {
  countPriorToolCalls,
  DEFAULT_MAX_CALLS_PER_TOOL,
  DEFAULT_MAX_TOTAL_TOOL_CALLS,
  decideToolCallLimits,
  resolveToolCallLimits,
  type ToolCallCounts,
  type ToolCallLimit,
  type ToolCallLimitBehavior,
  type ToolCallLimitBreach,
  type ToolCallLimits,
  type ToolCallLimitsOptions,
} from './tool-call-limits.js';
export type {
  ToolCallEndEvent,
  ToolCallObserver,
  ToolCallOutcome,
  ToolCallStartEvent,
} from './tool-call-observer.js';
export {
  defaultToolExecutionEligibilityChecker,
  ToolCallingAdvisor,
  type ToolCallingAdvisorOptions,
  type ToolExecutionEligibilityChecker,
} from './tool-calling-advisor.js';
export type {
  ExecuteToolCallsOptions,
  ToolCallingManager,
  ToolExecutionResult,
} from './tool-calling-manager.js';
export {
  createDefaultToolExecutionExceptionProcessor,
  type DefaultToolExecutionExceptionProcessorOptions,
  type ToolExecutionExceptionProcessor,
} from './tool-execution-exception-processor.js';
export {
  buildToolExecutionGenerations,
  METADATA_TOOL_CONTENT,
  METADATA_TOOL_ID,
  METADATA_TOOL_NAME,
  METADATA_TOOL_STRUCTURED_CONTENT,
  RETURN_DIRECT_FINISH_REASON,
} from './tool-execution-result.js';
export type {
  CallToolLoopContext,
  StreamToolLoopContext,
  ToolLoopContext,
} from './tool-loop-context.js';
export { UsageAccumulator } from './usage-accumulator.js';
