// toolloop/openai: the OpenAI Chat Completions model (any OpenAI-compatible server), the Responses
// API model, their options and the types those options name. Wire types, converters and the
// stream assemblers stay inside.
export type { ProviderChatModelOptions } from '../internal/provider-chat-model-options.js';
export type { FetchFunction } from '../internal/provider-transport.js';
export type { RetryDelayOptions } from '../internal/retry-delay.js';
export type { SchemaAdaptation } from '../internal/tool-schema-adaptation.js';
export { OpenAiChatModel, type OpenAiChatModelOptions } from './openai-chat-model.js';
export type { OpenAiChatOptions, OpenAiReasoningEffort } from './openai-chat-options.js';
export {
  OpenAiResponsesChatModel,
  type OpenAiResponsesChatModelOptions,
} from './openai-responses-chat-model.js';
export type {
  OpenAiResponsesChatOptions,
  OpenAiResponsesOptions,
} from './openai-responses-chat-options.js';
export type { OpenAiToolResultMedia } from './to-openai-request.js';
