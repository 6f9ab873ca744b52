/**
 * Advisor param under which the tool loop (`ToolCallingAdvisor`) puts an id of its own for the
 * turn it runs: unique per turn (a random per-process prefix and a counter), the same in the request of every round of that turn. An
 * advisor inside the loop, such as a memory advisor, links the rounds of one turn by it; tool-call
 * ids cannot do that, since providers may give every call the same id. A tool loop of your own
 * should do the same.
 */
export const TOOL_LOOP_TURN_ID = 'toolloop.tool-loop.turn-id';
