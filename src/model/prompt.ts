import type { Message, SystemMessage } from '../messages/index.js';
import type { ChatOptions } from './chat-options.js';

/** The messages and options of one model request. */
export interface Prompt {
  messages: Message[];
  options: ChatOptions;
}

/** Creates a prompt; options default to none. */
export function createPrompt(messages: Message[], options: ChatOptions = {}): Prompt {
  return { messages, options };
}

/** The first system message of a prompt, or an empty one when there is none (reference behaviour). */
export function promptSystemMessage(prompt: Prompt): SystemMessage {
  for (const message of prompt.messages) if (message.role === 'system') return message;
  return { role: 'system', text: '' };
}

/**
 * Returns a copy of the messages whose first system message is replaced by `augment(it)`; when
 * there is none, `augment` of an empty system message is inserted first.
 */
export function augmentSystemMessage(
  messages: readonly Message[],
  augment: (system: SystemMessage) => SystemMessage,
): Message[] {
  const index = messages.findIndex((message) => message.role === 'system');
  if (index === -1) return [augment({ role: 'system', text: '' }), ...messages];
  const copy = messages.slice();
  copy[index] = augment(messages[index] as SystemMessage);
  return copy;
}
