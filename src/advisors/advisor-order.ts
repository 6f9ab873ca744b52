/** The outermost possible order; lower orders run earlier (further out in the chain). */
export const HIGHEST_PRECEDENCE = -2147483648;

/** The innermost possible order, used by the terminal model-call advisor. */
export const LOWEST_PRECEDENCE = 2147483647;

/** Default order of the memory advisor: outside the tool loop. */
export const DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER = HIGHEST_PRECEDENCE + 200;

/** Default order of the tool-calling advisor. */
export const DEFAULT_TOOL_CALLING_ADVISOR_ORDER = HIGHEST_PRECEDENCE + 300;
