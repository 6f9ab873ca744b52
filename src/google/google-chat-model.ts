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
import type {
  ChatModel,
  ChatModelCallOptions,
  ChatOptions,
  ChatResponse,
  Prompt,
} from '../model/index.js';
import type { ToolCallback, ToolDefinition } from '../tools/tool-callback.js';
import { compileGoogleToolSchema } from './compile-google-tool-schema.js';
import { fromGoogleResponse } from './from-google-response.js';
import { GoogleStreamAssembler } from './google-stream-assembler.js';
import type {
  GoogleFunctionDeclaration,
  GoogleGenerateContentRequest,
  GoogleSafetySetting,
  GoogleThinkingConfig,
} from './google-wire.js';
import { toGoogleRequest } from './to-google-request.js';

/**
 * The request options of a {@link GoogleChatModel} beyond the common `ChatOptions` (`model`,
 * `temperature`, `maxTokens`, `toolChoice`, `stop`, `responseFormat`): set them as its defaults
 * in the constructor, or per request in the prompt's options. A type, not an interface, so a value
 * of it passes as `ChatOptions` (`.options(…)`).
 */
export type GoogleChatOptions = {
  /** `generationConfig.thinkingConfig`; the three options below override its fields. */
  thinkingConfig?: GoogleThinkingConfig | undefined;
  /** Thinking tokens (Gemini 2.5): `0` turns thinking off, `-1` lets the model decide. */
  thinkingBudget?: number | undefined;
  /** Return thought summaries (kept as `metadata.reasoningContent`, never as the answer's text). */
  includeThoughts?: boolean | undefined;
  /** How much the model thinks (Gemini 3): `minimal`, `low`, `medium` or `high`. */
  thinkingLevel?: 'minimal' | 'low' | 'medium' | 'high' | undefined;
  /** `safetySettings`: a block threshold per harm category. */
  safetySettings?: GoogleSafetySetting[] | undefined;
  topP?: number | undefined;
  topK?: number | undefined;
  /** A cached content's name (`cachedContents/…`) the request builds on. */
  cachedContent?: string | undefined;
  /** Vertex AI: stream each call's arguments (`partialArgs`) instead of sending it whole. */
  streamFunctionCallArguments?: boolean | undefined;
};

/** Options of a {@link GoogleChatModel}. */
export interface GoogleChatModelOptions extends ProviderChatModelOptions, GoogleChatOptions {
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
 * Per-request options are the prompt's `ChatOptions` plus {@link GoogleChatOptions}.
 */
export class GoogleChatModel implements ChatModel {
  /** The options merged under every request's options. */
  readonly defaultOptions: ChatOptions;
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
      ...providerDefaultOptions(options, { model: DEFAULT_MODEL }),
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
  async call(prompt: Prompt, options: ChatModelCallOptions = {}): Promise<ChatResponse> {
    const { url, body } = this.prepare(prompt, false);
    return this.transport.postJson(
      url,
      body,
      (answer) => fromGoogleResponse(answer, this.errors),
      options.signal,
    );
  }

  /** Sends the prompt and yields text deltas as they come, and whole tool calls where they end. */
  stream(prompt: Prompt, options: ChatModelCallOptions = {}): AsyncIterable<ChatResponse> {
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
  request(prompt: Prompt): GoogleGenerateContentRequest {
    return this.prepare(prompt, false).body;
  }

  /** The URL a prompt is sent to (the model is part of it; the key never is). */
  url(prompt: Prompt, stream: boolean): string {
    return this.prepare(prompt, stream).url;
  }

  private prepare(
    prompt: Prompt,
    stream: boolean,
  ): { url: string; body: GoogleGenerateContentRequest } {
    const options: ChatOptions = { ...this.defaultOptions, ...definedEntries(prompt.options) };
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
