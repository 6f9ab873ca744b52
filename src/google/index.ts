// toolloop/google: the Gemini model, its options and the types those options name. Wire types,
// converters and the stream assembler stay inside.
export type { ProviderChatModelOptions } from '../internal/provider-chat-model-options.js';
export type { FetchFunction } from '../internal/provider-transport.js';
export type { RetryDelayOptions } from '../internal/retry-delay.js';
export type { SchemaAdaptation } from '../internal/tool-schema-adaptation.js';
export { GoogleChatModel, type GoogleChatModelOptions } from './google-chat-model.js';
export type { GoogleChatOptions, GoogleOptions } from './google-chat-options.js';
export type {
  GoogleSafetySetting,
  GoogleThinkingConfig,
} from './google-wire.js';
