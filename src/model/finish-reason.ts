/**
 * Why a generation ended, in toolloop's words. Providers map theirs to the first five (OpenAI's
 * `stop`, `length`, `tool_calls`, `content_filter`; Anthropic's `end_turn` and `stop_sequence`,
 * `max_tokens`, `tool_use`, `refusal`; a reason with no counterpart is `'other'`); the tool loop
 * sets the last four on the turn's final response:
 *
 * - `'returnDirect'`: a batch of `returnDirect` tools answered without another model call;
 * - `'toolCallLimitExceeded'`: a call limit with `'THROW'` ended the turn;
 * - `'maxIterations'`: the loop's round cap forced a final answer;
 * - `'approvalPending'`: the turn paused, tool calls wait for a human decision (`pendingApprovalOf`).
 */
export type FinishReason =
  | 'stop'
  | 'length'
  | 'tool_calls'
  | 'content_filter'
  | 'other'
  | 'returnDirect'
  | 'toolCallLimitExceeded'
  | 'maxIterations'
  | 'approvalPending';

/**
 * The finish reasons by name, for code that compares against them. Kept because several modules
 * (providers, the loop) name them; a literal of {@link FinishReason} type-checks the same way.
 */
export const FinishReason = {
  STOP: 'stop',
  LENGTH: 'length',
  TOOL_CALLS: 'tool_calls',
  CONTENT_FILTER: 'content_filter',
  OTHER: 'other',
  RETURN_DIRECT: 'returnDirect',
  TOOL_CALL_LIMIT_EXCEEDED: 'toolCallLimitExceeded',
  MAX_ITERATIONS: 'maxIterations',
  APPROVAL_PENDING: 'approvalPending',
} as const satisfies Record<string, FinishReason>;
