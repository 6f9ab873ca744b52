/**
 * The advisor param that names the conversation (`.advisors(a => a.param(CONVERSATION_ID, id))`).
 * Memory advisors store under it; the tool loop binds a pending approval state to it, so the
 * state resumes only in the conversation it paused in. Defined here, beside the other params the
 * loop reads, and exported from the memory module where users meet it.
 */
export const CONVERSATION_ID = 'chat_memory_conversation_id';
