import {
  definedEntries,
  type ProviderChatModelOptions,
  providerDefaultOptions,
} from '../internal/provider-chat-model-options.js';
import { resolveProviderConnection } from '../internal/provider-environment.js';
import type { ProviderErrors } from '../internal/provider-errors.js';
import type { ProviderTransport } from '../internal/provider-transport.js';
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
import { compileOpenAiToolSchema } from './compile-openai-tool-schema.js';
import { fromOpenAiResponse } from './from-openai-response.js';
import type { OpenAiChatOptions, OpenAiReasoningEffort } from './openai-chat-options.js';
import { OpenAiStreamAssembler } from './openai-stream-assembler.js';
import { openAiTransport } from './openai-transport.js';
import type { OpenAiChatRequest, OpenAiToolParam } from './openai-wire.js';
import { restoreArguments, strictArgumentRestorers } from './restore-strict-arguments.js';
import { type OpenAiToolResultMedia, toOpenAiRequest } from './to-openai-request.js';

/** Options of an {@link OpenAiChatModel}. */
export interface OpenAiChatModelOptions extends ProviderChatModelOptions {
  /**
   * Default `OPENAI_BASE_URL`, else `https://api.openai.com/v1`; any OpenAI-compatible server's
   * `/v1` root works.
   */
  baseUrl?: string | undefined;
  /** Default `OPENAI_MODEL`, else `gpt-4o-mini`. */
  model?: string | undefined;
  /** `OpenAI-Organization` header. */
  organization?: string | undefined;
  /** `OpenAI-Project` header. */
  project?: string | undefined;
  /**
   * Body field of the output limit. Default `max_completion_tokens` for api.openai.com (its
   * reasoning models reject `max_tokens`) and `max_tokens` elsewhere (what most compatible
   * servers read).
   */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens' | undefined;
  /** Ask for usage at the end of a stream (`stream_options.include_usage`). Default `true`. */
  streamUsage?: boolean | undefined;
  /**
   * Send the reasoning a model returned (`metadata.reasoningContent`) back with its assistant
   * message as `reasoning_content`, as DeepSeek's thinking mode asks within a tool-calling turn.
   * Default `false` (OpenAI rejects the field).
   */
  sendReasoningContent?: boolean | undefined;
  /** Default `reasoningEffort` of every request (see {@link OpenAiChatOptions}). */
  reasoningEffort?: OpenAiReasoningEffort | undefined;
  /** Default `seed` of every request. */
  seed?: number | undefined;
  /**
   * Tool results with media (a screenshot tool's image, a PDF): Chat Completions takes only text
   * in a tool message, so by default (`'user-message'`) the tool message holds the text and says
   * where the media went, and a user message after the batch's tool messages carries the images
   * (PDFs, WAV/MP3 audio given inline too). `'error'`: refuse such a request with an
   * `InvalidArgumentError` instead (for a server that must not receive user-role media).
   */
  toolResultMedia?: OpenAiToolResultMedia | undefined;
}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_MODEL = 'gpt-4o-mini';
/** The environment both OpenAI models read: `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `OPENAI_MODEL`. */
export const OPENAI_ENVIRONMENT = {
  providerLabel: 'OpenAI',
  apiKeyVariable: 'OPENAI_API_KEY',
  baseUrlVariable: 'OPENAI_BASE_URL',
  modelVariable: 'OPENAI_MODEL',
  defaultBaseUrl: DEFAULT_BASE_URL,
  publicHost: 'api.openai.com',
};

/**
 * A `ChatModel` for the Chat Completions API of OpenAI and every OpenAI-compatible server
 * (Ollama, vLLM, LM Studio, Groq, DeepSeek, xAI, Together, …), on plain `fetch` and
 * `eventsource-parser`. It sends the tools' definitions (schemas compiled for the API, strict on
 * request) and returns tool calls; it never executes them. Per-request options are the prompt's
 * {@link OpenAiChatOptions}: `model`, `temperature`, `maxTokens`, `topP`, `stop`, `toolChoice`,
 * `responseFormat`, `parallelToolCalls`, `strictTools`, `reasoningEffort`, `seed` and
 * `extraBody`.
 */
export class OpenAiChatModel implements ChatModel<OpenAiChatOptions> {
  /** The options merged under every request's options. */
  readonly defaultOptions: OpenAiChatOptions;
  /**
   * Where requests go: the `baseUrl` option, else `OPENAI_BASE_URL`, else the provider's address (for
   * display, e.g. by `toolloop chat`; the key is never part of it).
   */
  readonly baseUrl: string;
  private readonly transport: ProviderTransport;
  private readonly errors: ProviderErrors;
  private readonly url: string;
  private readonly settings: {
    maxTokensField: 'max_tokens' | 'max_completion_tokens';
    streamUsage: boolean;
    sendReasoningContent: boolean;
    toolResultMedia: OpenAiToolResultMedia;
  };
  private readonly schemas: ToolSchemaCompilerCache;

  /**
   * Reads `OPENAI_API_KEY`, `OPENAI_BASE_URL` and `OPENAI_MODEL` (of `options.env`, default
   * `process.env`) for the options omitted. Throws an `InvalidArgumentError` naming
   * `OPENAI_API_KEY` and the `apiKey` option when api.openai.com would be called without a key.
   */
  constructor(options: OpenAiChatModelOptions = {}) {
    const connection = resolveProviderConnection(options, OPENAI_ENVIRONMENT);
    const baseUrl = connection.baseUrl;
    options = { ...options, ...connection };
    this.baseUrl = baseUrl;
    this.url = `${baseUrl}/chat/completions`;
    this.defaultOptions = providerDefaultOptions<OpenAiChatOptions>(
      options,
      { model: DEFAULT_MODEL },
      { reasoningEffort: options.reasoningEffort, seed: options.seed },
    );
    this.settings = {
      maxTokensField:
        options.maxTokensField ??
        (/^https:\/\/api\.openai\.com(\/|$)/.test(baseUrl)
          ? 'max_completion_tokens'
          : 'max_tokens'),
      streamUsage: options.streamUsage ?? true,
      sendReasoningContent: options.sendReasoningContent ?? false,
      toolResultMedia: options.toolResultMedia ?? 'user-message',
    };
    const { transport, errors } = openAiTransport(options);
    this.transport = transport;
    this.errors = errors;
    this.schemas = new ToolSchemaCompilerCache(
      'openai',
      compileOpenAiToolSchema,
      options.onSchemaAdaptation,
    );
  }

  /** Sends the prompt and returns the whole response. */
  async call(
    prompt: Prompt<OpenAiChatOptions>,
    options: ChatModelCallOptions = {},
  ): Promise<ChatResponse> {
    const { body, restorers } = this.prepare(prompt, false);
    return this.transport.postJson(
      this.url,
      body,
      (answer) => restoreArguments(fromOpenAiResponse(answer, this.errors), restorers),
      options.signal,
    );
  }

  /** Sends the prompt and yields text deltas as they come, and whole tool calls where they end. */
  async *stream(
    prompt: Prompt<OpenAiChatOptions>,
    options: ChatModelCallOptions = {},
  ): AsyncIterable<ChatResponse> {
    const { body, restorers } = this.prepare(prompt, true);
    const chunks = this.transport.postEventStream(
      this.url,
      body,
      () => new OpenAiStreamAssembler(this.errors),
      options.signal,
    );
    for await (const chunk of chunks) yield restoreArguments(chunk, restorers);
  }

  /**
   * The tools as they would be sent, with every schema adaptation; call it at registration to
   * see what strict mode changes before any request is made.
   */
  compileTools(
    tools: readonly (OfferedTool | ToolDefinition)[],
    options: { strict?: boolean } = {},
  ): { tools: OpenAiToolParam[]; adaptations: SchemaAdaptation[] } {
    const strict = options.strict ?? this.defaultOptions.strictTools === true;
    const compiled = this.schemas.compileAll(tools, strict);
    const request = toOpenAiRequest([], { model: 'x' }, compiled.tools, {
      stream: false,
      streamUsage: false,
      maxTokensField: 'max_tokens',
      defaultModel: 'x',
    });
    return { tools: request.tools ?? [], adaptations: compiled.adaptations };
  }

  /** The request body this model sends for a prompt (what `call` / `stream` POST). */
  request(prompt: Prompt<OpenAiChatOptions>, stream: boolean): OpenAiChatRequest {
    return this.prepare(prompt, stream).body;
  }

  private prepare(
    prompt: Prompt<OpenAiChatOptions>,
    stream: boolean,
  ): { body: OpenAiChatRequest; restorers: Map<string, (args: string) => string> } {
    assertSendableMessages(prompt.messages, this.errors.provider);
    assertToolCallsAnswered(prompt.messages, this.errors.provider);
    const options: OpenAiChatOptions = {
      ...this.defaultOptions,
      ...definedEntries(prompt.options),
    };
    const { tools } = this.schemas.compileAll(
      options.toolCallbacks ?? [],
      options.strictTools === true,
    );
    const restorers = strictArgumentRestorers(tools);
    const body = toOpenAiRequest(prompt.messages, options, tools, {
      stream,
      streamUsage: this.settings.streamUsage,
      maxTokensField: this.settings.maxTokensField,
      defaultModel: DEFAULT_MODEL,
      sendReasoningContent: this.settings.sendReasoningContent,
      toolResultMedia: this.settings.toolResultMedia,
    });
    return { body, restorers };
  }
}
