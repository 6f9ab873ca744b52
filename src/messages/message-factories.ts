import type {
  AssistantMessage,
  Media,
  Metadata,
  SystemMessage,
  ToolCall,
  ToolResponse,
  ToolResponseMessage,
  UserMessage,
} from './message.js';

/** Creates a system message. */
export function systemMessage(text: string, metadata?: Metadata): SystemMessage {
  return metadata === undefined ? { role: 'system', text } : { role: 'system', text, metadata };
}

/** Creates a user message, optionally with media and metadata. */
export function userMessage(
  text: string,
  options: { media?: Media[]; metadata?: Metadata } = {},
): UserMessage {
  const message: UserMessage = { role: 'user', text };
  if (options.media !== undefined) message.media = options.media;
  if (options.metadata !== undefined) message.metadata = options.metadata;
  return message;
}

/** Creates an assistant message; `toolCalls` defaults to none. */
export function assistantMessage(
  text: string | null,
  toolCalls: ToolCall[] = [],
  metadata?: Metadata,
): AssistantMessage {
  const message: AssistantMessage = { role: 'assistant', text, toolCalls };
  if (metadata !== undefined) message.metadata = metadata;
  return message;
}

/** Creates a tool call; `args` may be a JSON string or a value to serialise. */
export function toolCall(id: string, name: string, args: string | object = '{}'): ToolCall {
  return { id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
}

/** Creates a tool response message from the responses of one batch. */
export function toolResponseMessage(
  responses: ToolResponse[],
  metadata?: Metadata,
): ToolResponseMessage {
  return metadata === undefined
    ? { role: 'tool', responses }
    : { role: 'tool', responses, metadata };
}

/** Creates one tool response; set `isError` for error results. */
export function toolResponse(
  id: string,
  name: string,
  responseData: string,
  isError?: boolean,
): ToolResponse {
  return isError ? { id, name, responseData, isError: true } : { id, name, responseData };
}
