/**
 * Attribute, span and metric names of the OpenTelemetry GenAI semantic conventions that
 * toolloop emits (gen_ai.* names follow the conventions; toolloop.* names are toolloop's own,
 * for facts the conventions have no name for).
 */
export const GenAiAttributes = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  /** Input tokens read from the provider's prompt cache (part of the input tokens). */
  usageCacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  /** Input tokens written to the provider's prompt cache. */
  usageCacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  /** Output tokens the model spent reasoning (part of the output tokens). */
  usageReasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
  tokenType: 'gen_ai.token.type',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
  turnId: 'toolloop.turn.id',
  turnMode: 'toolloop.turn.mode',
  iteration: 'toolloop.iteration',
  offeredTools: 'toolloop.tools.offered',
  toolOutcome: 'toolloop.tool.outcome',
  /** One entry per content part of a tool result: `type media-type bytes`, never the bytes. */
  toolResultParts: 'toolloop.tool.result.parts',
  /** `true` on a durable turn's call that a recovered run answered from its checkpoint. */
  replayed: 'toolloop.replayed',
} as const;

/** The `gen_ai.operation.name` values toolloop uses. */
export const GenAiOperations = {
  invokeAgent: 'invoke_agent',
  chat: 'chat',
  executeTool: 'execute_tool',
} as const;

/** Metric names: the conventions' client metrics, and toolloop's tool duration. */
export const GenAiMetrics = {
  tokenUsage: 'gen_ai.client.token.usage',
  operationDuration: 'gen_ai.client.operation.duration',
  toolDuration: 'toolloop.tool.duration',
} as const;

/** Bucket boundaries the conventions advise for `gen_ai.client.token.usage`. */
export const TOKEN_USAGE_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];

/** Bucket boundaries (seconds) the conventions advise for `gen_ai.client.operation.duration`. */
export const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
