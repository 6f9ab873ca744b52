// The public surface of toolloop: the names a user writes, listed explicitly. Machinery used only
// inside stays unexported; test/package/exports.test.ts lists every name, so adding one is a
// decision, and the README's "Public API" section lists them by concept.
export {
  type Advisor,
  type CallAdvisor,
  type CallAdvisorChain,
  type ChatClientRequest,
  type ChatClientResponse,
  DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER,
  HIGHEST_PRECEDENCE,
  LOWEST_PRECEDENCE,
  type StreamAdvisor,
  type StreamAdvisorChain,
  TOOL_LOOP_TURN_ID,
} from './advisors/index.js';
export {
  approveToolCall,
  denyToolCall,
  type PendingToolApproval,
  type PendingToolCall,
  pendingApprovalOf,
  type ToolApprovalDecision,
  type ToolApprovalOptions,
  ToolApprovalPolicies,
  type ToolApprovalPolicy,
  type ToolApprovalRequest,
} from './approval/index.js';
export {
  type AugmentedArgumentEvent,
  AugmentedToolCallback,
  AugmentedToolCallbackProvider,
  ToolInputSchemaAugmenter,
} from './augmentation/index.js';
export {
  AdvisorParams,
  ChatClient,
  type ChatClientOptions,
  type ChatClientRequestSpec,
  pipeServerSentEvents,
  toServerSentEventsResponse,
} from './client/index.js';
export type { EmbeddingModel, EmbedOptions } from './embeddings/embedding-model.js';
export type {
  ToolEmbeddingCache,
  ToolEmbeddingCacheEntry,
} from './embeddings/tool-embedding-cache.js';
export {
  AbortError,
  ChatModelError,
  IllegalStateError,
  InvalidArgumentError,
  InvalidToolInputError,
  isAbortError,
  MemoryError,
  NoSuchToolError,
  StructuredOutputError,
  ToolApprovalError,
  ToolDefinitionError,
  ToolExecutionError,
  ToolloopError,
  type ToolloopErrorCode,
} from './errors/index.js';
export {
  type AppendOptions,
  type ChatMemory,
  type ChatMemoryRepository,
  CONVERSATION_ID,
  InMemoryChatMemoryRepository,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  type RetainMessages,
} from './memory/index.js';
export {
  type AssistantMessage,
  assistantMessage,
  type Message,
  type SystemMessage,
  systemMessage,
  type ToolCall,
  type ToolResponse,
  type ToolResponseMessage,
  toolCall,
  toolResponse,
  toolResponseMessage,
  type UserMessage,
  userMessage,
} from './messages/index.js';
export {
  type ChatModel,
  type ChatModelCallOptions,
  type ChatOptions,
  type ChatResponse,
  ChatResponseAggregator,
  chatResponse,
  createPrompt,
  type FinishReason,
  hasToolCalls,
  type Prompt,
  type ToolCallDelta,
} from './model/index.js';
export type {
  TurnEvent,
  TurnEventListener,
} from './observability/index.js';
export { debugLogListener } from './observability/index.js';
export {
  createDefaultToolExecutionExceptionProcessor,
  createToolCallingManager,
  ToolCallingAdvisor,
  type ToolCallingAdvisorOptions,
  type ToolCallingManager,
  type ToolCallLimitBehavior,
  ToolCallLimitExceededError,
  type ToolExecutionExceptionProcessor,
  type ToolExecutionResult,
  type ToolLoopContext,
} from './tool-calling/index.js';
export {
  Bm25ToolIndex,
  HybridToolIndex,
  LexicalToolIndex,
  RegexToolIndex,
  type ToolIndex,
  type ToolReference,
  type ToolSearchFallback,
  type ToolSearchRequest,
  type ToolSearchResponse,
  ToolSearchToolCallingAdvisor,
  toolSearchTool,
  VectorToolIndex,
} from './tool-search/index.js';
export {
  isPortableToolName,
  type JsonSchema,
  jsonSchema,
  staticToolCallbackProvider,
  staticToolCallbackResolver,
  type ToolCallback,
  type ToolCallbackProvider,
  type ToolCallbackProviderRequest,
  type ToolCallbackResolver,
  type ToolCallOptions,
  type ToolContext,
  type ToolDefinition,
  type ToolMetadata,
  type ToolResultConverter,
  type ToolSource,
  tool,
  toolCallbacksFrom,
} from './tools/index.js';
