import type {
  AssistantMessage,
  Message,
  SystemMessage,
  ToolResponseMessage,
  UserMessage,
} from './message.js';

/** True for a system message. */
export function isSystemMessage(message: Message): message is SystemMessage {
  return message.role === 'system';
}

/** True for a user message. */
export function isUserMessage(message: Message): message is UserMessage {
  return message.role === 'user';
}

/** True for an assistant message. */
export function isAssistantMessage(message: Message): message is AssistantMessage {
  return message.role === 'assistant';
}

/** True for a tool response message. */
export function isToolResponseMessage(message: Message): message is ToolResponseMessage {
  return message.role === 'tool';
}

/** True when an assistant message requests at least one tool call. */
export function messageHasToolCalls(message: Message): message is AssistantMessage {
  return message.role === 'assistant' && message.toolCalls.length > 0;
}
