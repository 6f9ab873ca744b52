export {
  type AugmentationOptions,
  type AugmentedArgumentConsumer,
  type AugmentedArgumentEvent,
  AugmentedToolCallback,
} from './augmented-tool-callback.js';
export {
  AugmentedToolCallbackProvider,
  type AugmentedToolCallbackProviderOptions,
} from './augmented-tool-callback-provider.js';
export { ToolInputSchemaAugmenter } from './tool-input-schema-augmenter.js';
