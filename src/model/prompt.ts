import type { Message, SystemMessage } from '../messages/index.js';
import type { ChatOptions, ToolCallingChatOptions } from './chat-options.js';

/**
 * The messages and options of one model request. `Options` is {@link ChatOptions} for what a
 * `ChatModel` receives and {@link ToolCallingChatOptions} for a request the loop owns (tools to
 * run, tool context).
 */
export interface Prompt<Options extends ChatOptions | ToolCallingChatOptions = ChatOptions> {
  messages: Message[];
  options: Options;
}

/**
 * Creates a prompt; options default to none. The options' type is kept as given, so a prompt
 * with tools but no context can go to a model and to the `ToolCallingManager` alike, while one
 * that carries `toolContext` cannot be handed to a model (a type error). Name a provider's option
 * type to use its options: `createPrompt<AnthropicChatOptions>(messages, { thinking: … })`.
 */
export function createPrompt(messages: Message[]): Prompt<ChatOptions>;
export function createPrompt<Options extends ChatOptions | ToolCallingChatOptions>(
  messages: Message[],
  options: Options,
): Prompt<Options>;
export function createPrompt(
  messages: Message[],
  options: ChatOptions | ToolCallingChatOptions = {},
): Prompt<ChatOptions | ToolCallingChatOptions> {
  return { messages, options };
}

/** The first system message of a prompt, or an empty one when there is none (reference behaviour). */
export function promptSystemMessage(
  prompt: Prompt<ChatOptions | ToolCallingChatOptions>,
): SystemMessage {
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
