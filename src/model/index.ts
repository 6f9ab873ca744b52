export { aggregateChatResponses, ChatResponseAggregator } from './aggregate-chat-responses.js';
export type { ChatModel, ChatModelCallOptions } from './chat-model.js';
export type {
  ChatOptions,
  OfferedTool,
  ResponseFormat,
  ToolCallingChatOptions,
  ToolChoice,
} from './chat-options.js';
export {
  addUsage,
  type ChatResponse,
  type ChatResponseMetadata,
  chatResponse,
  firstGeneration,
  type Generation,
  type GenerationMetadata,
  hasToolCalls,
  isUsageEmpty,
  responseText,
  responseToolCalls,
  type ToolCallDelta,
  type Usage,
} from './chat-response.js';
export { FinishReason } from './finish-reason.js';
export { augmentSystemMessage, createPrompt, type Prompt, promptSystemMessage } from './prompt.js';
