import { InvalidArgumentError } from '../errors/index.js';
import type { Message } from './message.js';

/** Ids quoted in an error at most; a longer list ends with the count of the rest. */
const MAX_QUOTED_IDS = 5;
/** Characters of an id quoted at most (ids are model output). */
const MAX_ID_LENGTH = 64;

/**
 * Throws an `InvalidArgumentError` at the first place where `messages` (already known to be
 * well-formed, see `assertSendableMessages`) break the rule every provider API enforces: the
 * tool messages right after an assistant message with tool calls answer every one of its calls,
 * and answer nothing else. Answers may come in any order and over several consecutive tool
 * messages. `who` starts the message (the provider's name), e.g. "openai: messages[1]
 * (assistant) has tool calls with no tool response right after it: call_2 (…)".
 */
export function assertToolCallsAnswered(messages: readonly Message[], who: string): void {
  // The ids of the assistant message the current run of tool messages answers, and those of
  // them not answered yet.
  let issued: Set<string> | undefined;
  let open: Set<string> | undefined;
  let issuedAt = -1;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (message.role === 'tool') {
      for (const response of message.responses) {
        if (issued?.has(response.id) !== true) {
          throw new InvalidArgumentError(
            `${who}: messages[${index}] (tool) holds a response to ${quoteIds([response.id])} that answers no tool call of the assistant message right before it`,
          );
        }
        open?.delete(response.id);
      }
      continue;
    }
    if (open !== undefined && open.size > 0) throw unanswered(who, issuedAt, open);
    issued = undefined;
    open = undefined;
    if (message.role === 'assistant' && message.toolCalls.length > 0) {
      issued = new Set(message.toolCalls.map((call) => call.id));
      open = new Set(issued);
      issuedAt = index;
    }
  }
  if (open !== undefined && open.size > 0) throw unanswered(who, issuedAt, open);
}

function unanswered(who: string, index: number, ids: ReadonlySet<string>): InvalidArgumentError {
  return new InvalidArgumentError(
    `${who}: messages[${index}] (assistant) has tool calls with no tool response right after it: ${quoteIds([...ids])} (every tool call needs one, in the tool messages that follow it)`,
  );
}

function quoteIds(ids: readonly string[]): string {
  const quoted = ids
    .slice(0, MAX_QUOTED_IDS)
    .map((id) => (id.length > MAX_ID_LENGTH ? `${id.slice(0, MAX_ID_LENGTH)}…` : id));
  const rest = ids.length - quoted.length;
  return rest > 0 ? `${quoted.join(', ')} and ${rest} more` : quoted.join(', ');
}
