export type { ProviderChatModelOptions } from '../internal/provider-chat-model-options.js';
export type { FetchFunction } from '../internal/provider-transport.js';
export type { RetryDelayOptions } from '../internal/retry-delay.js';
export type { CompiledToolSchema, SchemaAdaptation } from '../internal/tool-schema-adaptation.js';
export { compileOpenAiToolSchema } from './compile-openai-tool-schema.js';
export {
  fromOpenAiResponse,
  mapOpenAiFinishReason,
  mapOpenAiUsage,
} from './from-openai-response.js';
export { OpenAiChatModel, type OpenAiChatModelOptions } from './openai-chat-model.js';
export { OpenAiStreamAssembler } from './openai-stream-assembler.js';
export type * from './openai-wire.js';
export {
  type OpenAiRequestSettings,
  toOpenAiMessages,
  toOpenAiRequest,
} from './to-openai-request.js';
