import {
  definedEntries,
  type ProviderChatModelOptions,
  providerDefaultOptions,
  providerTransportOptions,
} from '../internal/provider-chat-model-options.js';
import { resolveProviderConnection } from '../internal/provider-environment.js';
import type { ProviderErrors } from '../internal/provider-errors.js';
import { ProviderTransport } from '../internal/provider-transport.js';
import type { SchemaAdaptation } from '../internal/tool-schema-adaptation.js';
import { ToolSchemaCompilerCache } from '../internal/tool-schema-compiler-cache.js';
import { assertSendableMessages, assertToolCallsAnswered } from '../messages/index.js';
import type {
  ChatModel,
  ChatModelCallOptions,
  ChatResponse,
  OfferedTool,
  Prompt,
} from '../model/index.js';
import type { ToolDefinition } from '../tools/tool-callback.js';
import type {
  AnthropicCacheControl,
  AnthropicChatOptions,
  AnthropicThinking,
} from './anthropic-chat-options.js';
import { AnthropicStreamAssembler } from './anthropic-stream-assembler.js';
import type { AnthropicMessagesRequest, AnthropicToolParam } from './anthropic-wire.js';
import { compileAnthropicToolSchema } from './compile-anthropic-tool-schema.js';
import { fromAnthropicResponse } from './from-anthropic-response.js';
import { toAnthropicRequest } from './to-anthropic-request.js';

/** Options of an {@link AnthropicChatModel}. */
export interface AnthropicChatModelOptions extends ProviderChatModelOptions {
  /**
   * Default `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com` (the `/v1/messages` path is
   * appended).
   */
  baseUrl?: string | undefined;
  /** Default `claude-sonnet-4-5`. */
  model?: string | undefined;
  /** Default 4096: the Messages API requires `max_tokens`. */
  maxTokens?: number | undefined;
  /** `anthropic-version` header. Default `2023-06-01`. */
  version?: string | undefined;
  /** `anthropic-beta` header values. */
  betas?: string[] | undefined;
  /** Default `topK` of every request. */
  topK?: number | undefined;
  /** Default extended thinking of every request (see {@link AnthropicChatOptions}). */
  thinking?: AnthropicThinking | undefined;
  /** Default prompt caching of every request (see {@link AnthropicChatOptions}). */
  cacheControl?: AnthropicCacheControl | undefined;
}

const DEFAULT_BASE_URL = 'https://api.anthropic.com';
const DEFAULT_MODEL = 'claude-sonnet-4-5';
const DEFAULT_MAX_TOKENS = 4096;
const ANTHROPIC_ENVIRONMENT = {
  providerLabel: 'Anthropic',
  apiKeyVariable: 'ANTHROPIC_API_KEY',
  baseUrlVariable: 'ANTHROPIC_BASE_URL',
  defaultBaseUrl: DEFAULT_BASE_URL,
  publicHost: 'api.anthropic.com',
};

/**
 * A `ChatModel` for Anthropic's Messages API, on plain `fetch` and `eventsource-parser`. System
 * messages become the `system` text, tool calls `tool_use` blocks and tool responses
 * `tool_result` blocks (`is_error` for error results). `options.responseFormat` of type
 * `json_schema` is sent as `output_config.format` (structured outputs). Per-request options are
 * {@link AnthropicChatOptions}: `model`, `temperature`, `maxTokens`, `topP`, `stop`,
 * `toolChoice`, `responseFormat`, `parallelToolCalls`, `strictTools`, `topK`, `thinking`,
 * `cacheControl` and `extraBody`.
 */
export class AnthropicChatModel implements ChatModel<AnthropicChatOptions> {
  /** The options merged under every request's options. */
  readonly defaultOptions: AnthropicChatOptions;
  /**
   * Where requests go: the `baseUrl` option, else `ANTHROPIC_BASE_URL`, else the provider's address (for
   * display, e.g. by `toolloop chat`; the key is never part of it).
   */
  readonly baseUrl: string;
  private readonly transport: ProviderTransport;
  private readonly errors: ProviderErrors;
  private readonly url: string;
  private readonly schemas: ToolSchemaCompilerCache;

  /**
   * Reads `ANTHROPIC_API_KEY` and `ANTHROPIC_BASE_URL` (of `options.env`, default `process.env`)
   * for the options omitted. Throws an `InvalidArgumentError` naming `ANTHROPIC_API_KEY` and the
   * `apiKey` option when api.anthropic.com would be called without a key.
   */
  constructor(options: AnthropicChatModelOptions = {}) {
    const connection = resolveProviderConnection(options, ANTHROPIC_ENVIRONMENT);
    const baseUrl = connection.baseUrl.replace(/\/v1$/, '');
    options = { ...options, ...connection };
    this.baseUrl = baseUrl;
    this.url = `${baseUrl}/v1/messages`;
    this.defaultOptions = providerDefaultOptions<AnthropicChatOptions>(
      options,
      { model: DEFAULT_MODEL, maxTokens: DEFAULT_MAX_TOKENS },
      { topK: options.topK, thinking: options.thinking, cacheControl: options.cacheControl },
    );
    const headers: Record<string, string> = {
      'anthropic-version': options.version ?? '2023-06-01',
      ...options.headers,
    };
    if (options.apiKey) headers['x-api-key'] = options.apiKey;
    if (options.betas && options.betas.length > 0)
      headers['anthropic-beta'] = options.betas.join(',');
    const transportOptions = providerTransportOptions('anthropic', options, headers);
    this.errors = transportOptions.errors;
    this.transport = new ProviderTransport(transportOptions);
    this.schemas = new ToolSchemaCompilerCache(
      'anthropic',
      compileAnthropicToolSchema,
      options.onSchemaAdaptation,
    );
  }

  /** Sends the prompt and returns the whole response. */
  async call(
    prompt: Prompt<AnthropicChatOptions>,
    options: ChatModelCallOptions = {},
  ): Promise<ChatResponse> {
    return this.transport.postJson(
      this.url,
      this.request(prompt, false),
      (answer) => fromAnthropicResponse(answer, this.errors),
      options.signal,
    );
  }

  /** Sends the prompt and yields text deltas as they come, and whole tool calls where they end. */
  stream(
    prompt: Prompt<AnthropicChatOptions>,
    options: ChatModelCallOptions = {},
  ): AsyncIterable<ChatResponse> {
    return this.transport.postEventStream(
      this.url,
      this.request(prompt, true),
      () => new AnthropicStreamAssembler(this.errors),
      options.signal,
    );
  }

  /**
   * The tools as they would be sent, with every schema adaptation; call it at registration to
   * see the changes before any request is made.
   */
  compileTools(
    tools: readonly (OfferedTool | ToolDefinition)[],
    options: { strict?: boolean } = {},
  ): { tools: AnthropicToolParam[]; adaptations: SchemaAdaptation[] } {
    const strict = options.strict ?? this.defaultOptions.strictTools === true;
    const compiled = this.schemas.compileAll(tools, strict);
    const request = toAnthropicRequest([], {}, compiled.tools, {
      stream: false,
      defaultModel: 'x',
      defaultMaxTokens: 1,
    });
    return { tools: request.tools ?? [], adaptations: compiled.adaptations };
  }

  /** The request body this model sends for a prompt (what `call` / `stream` POST). */
  request(prompt: Prompt<AnthropicChatOptions>, stream: boolean): AnthropicMessagesRequest {
    assertSendableMessages(prompt.messages, this.errors.provider);
    assertToolCallsAnswered(prompt.messages, this.errors.provider);
    const options: AnthropicChatOptions = {
      ...this.defaultOptions,
      ...definedEntries(prompt.options),
    };
    const { tools } = this.schemas.compileAll(
      options.toolCallbacks ?? [],
      options.strictTools === true,
    );
    return toAnthropicRequest(prompt.messages, options, tools, {
      stream,
      defaultModel: DEFAULT_MODEL,
      defaultMaxTokens: DEFAULT_MAX_TOKENS,
    });
  }
}
