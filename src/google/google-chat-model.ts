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
import type { ChatModel, ChatModelCallOptions, ChatResponse, Prompt } from '../model/index.js';
import type { ToolCallback, ToolDefinition } from '../tools/tool-callback.js';
import { compileGoogleToolSchema } from './compile-google-tool-schema.js';
import { fromGoogleResponse } from './from-google-response.js';
import type { GoogleChatOptions, GoogleOptions } from './google-chat-options.js';
import { GoogleStreamAssembler } from './google-stream-assembler.js';
import type { GoogleFunctionDeclaration, GoogleGenerateContentRequest } from './google-wire.js';
import { toGoogleRequest } from './to-google-request.js';

/** Options of a {@link GoogleChatModel}. */
export interface GoogleChatModelOptions extends ProviderChatModelOptions, GoogleOptions {
  /**
   * Sent as `x-goog-api-key`, never in the URL. Default `GOOGLE_API_KEY`, else `GEMINI_API_KEY`
   * (the order Google's SDK reads them in).
   */
  apiKey?: string | undefined;
  /**
   * Default `GOOGLE_GEMINI_BASE_URL`, else `https://generativelanguage.googleapis.com`. The API
   * version is appended unless the URL already names one (`/v1`, `/v1beta`, …), so a gateway's
   * or Vertex AI express mode's root (`https://aiplatform.googleapis.com/v1/publishers/google`)
   * works as it is.
   */
  baseUrl?: string | undefined;
  /** Default `gemini-2.5-flash`. */
  model?: string | undefined;
  /** The API version appended to a base URL that names none. Default `v1beta`. */
  apiVersion?: string | undefined;
  /** Ignored: Gemini has no switch for parallel function calls. */
  parallelToolCalls?: boolean | undefined;
  /** Ignored: Gemini has no strict schema mode. */
  strictTools?: boolean | undefined;
}

const DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
const DEFAULT_MODEL = 'gemini-2.5-flash';
const GOOGLE_ENVIRONMENT = {
  providerLabel: 'Gemini',
  apiKeyVariable: 'GEMINI_API_KEY',
  apiKeyVariables: ['GOOGLE_API_KEY', 'GEMINI_API_KEY'],
  baseUrlVariable: 'GOOGLE_GEMINI_BASE_URL',
  defaultBaseUrl: DEFAULT_BASE_URL,
  publicHost: 'generativelanguage.googleapis.com',
};

/**
 * A `ChatModel` for the Gemini API (`generateContent`, and `streamGenerateContent?alt=sse` to
 * stream), on plain `fetch` and `eventsource-parser`, with no Google SDK. Tools are sent as
 * function declarations whose schemas are compiled to the subset the API accepts (the changes are
 * reported once per tool); tool calls get stable ids Gemini does not give; thought signatures
 * (which Gemini 3 requires back with the calls of the next request) are kept on the calls and the
 * assistant message and sent back exactly where they came. The tool choice becomes `toolConfig`.
 * Per-request options are {@link GoogleChatOptions}.
 */
export class GoogleChatModel implements ChatModel<GoogleChatOptions> {
  /** The options merged under every request's options. */
  readonly defaultOptions: GoogleChatOptions;
  private readonly transport: ProviderTransport;
  private readonly errors: ProviderErrors;
  private readonly root: string;
  private readonly schemas: ToolSchemaCompilerCache;

  /**
   * Reads `GOOGLE_API_KEY` / `GEMINI_API_KEY` and `GOOGLE_GEMINI_BASE_URL` (of `options.env`,
   * default `process.env`) for the options omitted. Throws an `InvalidArgumentError` naming both
   * variables and the `apiKey` option when the public API would be called without a key.
   */
  constructor(options: GoogleChatModelOptions = {}) {
    const connection = resolveProviderConnection(options, GOOGLE_ENVIRONMENT);
    options = { ...options, ...connection };
    const versioned = /\/v\d+(?:alpha|beta)?\d*(?:\/|$)/.test(new URL(connection.baseUrl).pathname);
    this.root = versioned
      ? connection.baseUrl
      : `${connection.baseUrl}/${options.apiVersion ?? 'v1beta'}`;
    this.defaultOptions = {
      ...providerDefaultOptions<GoogleChatOptions>(options, { model: DEFAULT_MODEL }),
      ...definedEntries({
        thinkingConfig: options.thinkingConfig,
        thinkingBudget: options.thinkingBudget,
        includeThoughts: options.includeThoughts,
        thinkingLevel: options.thinkingLevel,
        safetySettings: options.safetySettings,
        topP: options.topP,
        topK: options.topK,
        cachedContent: options.cachedContent,
        streamFunctionCallArguments: options.streamFunctionCallArguments,
      }),
    };
    const headers: Record<string, string> = { ...options.headers };
    if (options.apiKey) headers['x-goog-api-key'] = options.apiKey;
    const transportOptions = providerTransportOptions('google', options, headers);
    this.errors = transportOptions.errors;
    this.transport = new ProviderTransport(transportOptions);
    this.schemas = new ToolSchemaCompilerCache(
      'google',
      compileGoogleToolSchema,
      options.onSchemaAdaptation,
    );
  }

  /** Sends the prompt and returns the whole response. */
  async call(
    prompt: Prompt<GoogleChatOptions>,
    options: ChatModelCallOptions = {},
  ): Promise<ChatResponse> {
    const { url, body } = this.prepare(prompt, false);
    return this.transport.postJson(
      url,
      body,
      (answer) => fromGoogleResponse(answer, this.errors),
      options.signal,
    );
  }

  /** Sends the prompt and yields text deltas as they come, and whole tool calls where they end. */
  stream(
    prompt: Prompt<GoogleChatOptions>,
    options: ChatModelCallOptions = {},
  ): AsyncIterable<ChatResponse> {
    const { url, body } = this.prepare(prompt, true);
    return this.transport.postEventStream(
      url,
      body,
      () => new GoogleStreamAssembler(this.errors),
      options.signal,
    );
  }

  /**
   * The function declarations as they would be sent, with every schema adaptation; call it at
   * registration to see what the Gemini schema subset changes before any request is made.
   */
  compileTools(tools: readonly (ToolCallback | ToolDefinition)[]): {
    tools: GoogleFunctionDeclaration[];
    adaptations: SchemaAdaptation[];
  } {
    const compiled = this.schemas.compileAll(tools, false);
    const request = toGoogleRequest([], {}, compiled.tools);
    return {
      tools: request.tools?.[0]?.functionDeclarations ?? [],
      adaptations: compiled.adaptations,
    };
  }

  /** The request body this model sends for a prompt (what `call` / `stream` POST). */
  request(prompt: Prompt<GoogleChatOptions>): GoogleGenerateContentRequest {
    return this.prepare(prompt, false).body;
  }

  /** The URL a prompt is sent to (the model is part of it; the key never is). */
  url(prompt: Prompt<GoogleChatOptions>, stream: boolean): string {
    return this.prepare(prompt, stream).url;
  }

  private prepare(
    prompt: Prompt<GoogleChatOptions>,
    stream: boolean,
  ): { url: string; body: GoogleGenerateContentRequest } {
    assertSendableMessages(prompt.messages, this.errors.provider);
    assertToolCallsAnswered(prompt.messages, this.errors.provider);
    const options: GoogleChatOptions = {
      ...this.defaultOptions,
      ...definedEntries(prompt.options),
    };
    const { tools } = this.schemas.compileAll(options.toolCallbacks ?? [], false);
    const model =
      typeof options.model === 'string' && options.model !== '' ? options.model : DEFAULT_MODEL;
    const path = model
      .replace(/^models\//, '')
      .split('/')
      .map(encodeURIComponent)
      .join('/');
    const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    return {
      url: `${this.root}/models/${path}:${method}`,
      body: toGoogleRequest(prompt.messages, options, tools),
    };
  }
}
