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
import type { ChatModel, ChatModelCallOptions, ChatResponse, Prompt } from '../model/index.js';
import type { ToolCallback, ToolDefinition } from '../tools/tool-callback.js';
import { compileOpenAiToolSchema } from './compile-openai-tool-schema.js';
import { fromOpenAiResponsesResponse } from './from-openai-responses-response.js';
import { OPENAI_ENVIRONMENT } from './openai-chat-model.js';
import type {
  OpenAiResponsesChatOptions,
  OpenAiResponsesOptions,
} from './openai-responses-chat-options.js';
import { OpenAiResponsesStreamAssembler } from './openai-responses-stream-assembler.js';
import type { ResponsesFunctionTool, ResponsesRequest } from './openai-responses-wire.js';
import { openAiTransport } from './openai-transport.js';
import { restoreArguments, strictArgumentRestorers } from './restore-strict-arguments.js';
import { toOpenAiResponsesRequest } from './to-openai-responses-request.js';

/** Options of an {@link OpenAiResponsesChatModel}. */
export interface OpenAiResponsesChatModelOptions
  extends ProviderChatModelOptions,
    OpenAiResponsesOptions {
  /**
   * Default `OPENAI_BASE_URL`, else `https://api.openai.com/v1`; any server with a Responses API
   * under that root works (Azure OpenAI's `/openai/v1`, LM Studio, vLLM).
   */
  baseUrl?: string | undefined;
  /** Default `OPENAI_MODEL`, else `gpt-5-mini`. */
  model?: string | undefined;
  /** `OpenAI-Organization` header. */
  organization?: string | undefined;
  /** `OpenAI-Project` header. */
  project?: string | undefined;
}

const DEFAULT_MODEL = 'gpt-5-mini';

/**
 * A `ChatModel` for OpenAI's Responses API (`POST /responses`), on plain `fetch` and
 * `eventsource-parser`: its own class beside {@link OpenAiChatModel} (Chat Completions), reading
 * the same environment (`OPENAI_API_KEY`, `OPENAI_BASE_URL`, `OPENAI_MODEL`). Function tools are
 * sent with the same schema compiler (strict on request); each `function_call` item comes back as
 * a tool call whose id is its `call_id`. A reasoning model's reasoning items are kept on the
 * assistant message (`metadata.responseItems`, plain JSON, so chat memory keeps them) and sent back
 * on the next request, encrypted with the default `store: false`, so the model goes on from its
 * own reasoning after the tool results. Usage counts reasoning tokens.
 */
export class OpenAiResponsesChatModel implements ChatModel<OpenAiResponsesChatOptions> {
  /** The options merged under every request's options. */
  readonly defaultOptions: OpenAiResponsesChatOptions;
  private readonly transport: ProviderTransport;
  private readonly errors: ProviderErrors;
  private readonly url: string;
  private readonly schemas: ToolSchemaCompilerCache;

  /**
   * Reads `OPENAI_API_KEY`, `OPENAI_BASE_URL` and `OPENAI_MODEL` (of `options.env`, default
   * `process.env`) for the options omitted. Throws an `InvalidArgumentError` naming
   * `OPENAI_API_KEY` and the `apiKey` option when api.openai.com would be called without a key.
   */
  constructor(options: OpenAiResponsesChatModelOptions = {}) {
    const connection = resolveProviderConnection(options, OPENAI_ENVIRONMENT);
    options = { ...options, ...connection };
    this.url = `${connection.baseUrl}/responses`;
    this.defaultOptions = {
      ...providerDefaultOptions<OpenAiResponsesChatOptions>(options, { model: DEFAULT_MODEL }),
      ...definedEntries({
        reasoningEffort: options.reasoningEffort,
        reasoningSummary: options.reasoningSummary,
        store: options.store,
        previousResponseId: options.previousResponseId,
        includeEncryptedReasoning: options.includeEncryptedReasoning,
        verbosity: options.verbosity,
        topP: options.topP,
      }),
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
    prompt: Prompt<OpenAiResponsesChatOptions>,
    options: ChatModelCallOptions = {},
  ): Promise<ChatResponse> {
    const { body, restorers } = this.prepare(prompt, false);
    return this.transport.postJson(
      this.url,
      body,
      (answer) => restoreArguments(fromOpenAiResponsesResponse(answer, this.errors), restorers),
      options.signal,
    );
  }

  /** Sends the prompt and yields text deltas as they come, and whole tool calls where they end. */
  async *stream(
    prompt: Prompt<OpenAiResponsesChatOptions>,
    options: ChatModelCallOptions = {},
  ): AsyncIterable<ChatResponse> {
    const { body, restorers } = this.prepare(prompt, true);
    const chunks = this.transport.postEventStream(
      this.url,
      body,
      () => new OpenAiResponsesStreamAssembler(this.errors),
      options.signal,
    );
    for await (const chunk of chunks) yield restoreArguments(chunk, restorers);
  }

  /**
   * The tools as they would be sent, with every schema adaptation; call it at registration to
   * see what strict mode changes before any request is made.
   */
  compileTools(
    tools: readonly (ToolCallback | ToolDefinition)[],
    options: { strict?: boolean } = {},
  ): { tools: ResponsesFunctionTool[]; adaptations: SchemaAdaptation[] } {
    const strict = options.strict ?? this.defaultOptions.strictTools === true;
    const compiled = this.schemas.compileAll(tools, strict);
    const request = toOpenAiResponsesRequest([], { model: 'x' }, compiled.tools, {
      stream: false,
      defaultModel: 'x',
    });
    return { tools: request.tools ?? [], adaptations: compiled.adaptations };
  }

  /** The request body this model sends for a prompt (what `call` / `stream` POST). */
  request(prompt: Prompt<OpenAiResponsesChatOptions>, stream: boolean): ResponsesRequest {
    return this.prepare(prompt, stream).body;
  }

  private prepare(
    prompt: Prompt<OpenAiResponsesChatOptions>,
    stream: boolean,
  ): { body: ResponsesRequest; restorers: Map<string, (args: string) => string> } {
    assertSendableMessages(prompt.messages, this.errors.provider);
    const options: OpenAiResponsesChatOptions = {
      ...this.defaultOptions,
      ...definedEntries(prompt.options),
    };
    // With an explicit previous response, the calls the prompt's first tool results answer may
    // live only in that stored response.
    const previous = options.previousResponseId;
    if (previous === undefined || previous === null || previous === 'auto') {
      assertToolCallsAnswered(prompt.messages, this.errors.provider);
    }
    const { tools } = this.schemas.compileAll(
      options.toolCallbacks ?? [],
      options.strictTools === true,
    );
    const body = toOpenAiResponsesRequest(prompt.messages, options, tools, {
      stream,
      defaultModel: DEFAULT_MODEL,
    });
    return { body, restorers: strictArgumentRestorers(tools) };
  }
}
