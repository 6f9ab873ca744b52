export type { ProviderChatModelOptions } from '../internal/provider-chat-model-options.js';
export type { FetchFunction } from '../internal/provider-transport.js';
export type { RetryDelayOptions } from '../internal/retry-delay.js';
export type { CompiledToolSchema, SchemaAdaptation } from '../internal/tool-schema-adaptation.js';
export { AnthropicChatModel, type AnthropicChatModelOptions } from './anthropic-chat-model.js';
export { AnthropicStreamAssembler } from './anthropic-stream-assembler.js';
export type * from './anthropic-wire.js';
export { compileAnthropicToolSchema } from './compile-anthropic-tool-schema.js';
export {
  fromAnthropicResponse,
  mapAnthropicStopReason,
  mapAnthropicUsage,
} from './from-anthropic-response.js';
export {
  type AnthropicRequestSettings,
  toAnthropicMessages,
  toAnthropicRequest,
} from './to-anthropic-request.js';
