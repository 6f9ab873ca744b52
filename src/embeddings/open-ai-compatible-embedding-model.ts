import { type ChatModelError, InvalidArgumentError } from '../errors/index.js';
import { credentialSecrets } from '../internal/credential-secrets.js';
import { optionNames, rejectUnknownOptions } from '../internal/option-names.js';
import { resolveProviderConnection } from '../internal/provider-environment.js';
import { ProviderErrors } from '../internal/provider-errors.js';
import { ProviderTransport } from '../internal/provider-transport.js';
import type { EmbeddingModel, EmbedOptions } from './embedding-model.js';

/** Options of {@link OpenAiCompatibleEmbeddingModel}. */
export interface OpenAiCompatibleEmbeddingModelOptions {
  /** The embedding model, e.g. `'text-embedding-3-small'` or Ollama's `'nomic-embed-text'`. */
  readonly model: string;
  /**
   * The API root; `/embeddings` is appended. Default `OPENAI_BASE_URL`, else
   * `'https://api.openai.com/v1'`.
   */
  readonly baseUrl?: string;
  /**
   * Sent as `Authorization: Bearer …`. Default `OPENAI_API_KEY`; required for api.openai.com,
   * optional elsewhere (local servers usually need none).
   */
  readonly apiKey?: string;
  /** Requested vector length, for models that support shortening (`dimensions`). */
  readonly dimensions?: number;
  /**
   * Names the vector space for cached tool embeddings. Default: `model`, with `@dimensions` when
   * given. Set it when two servers host different models under one name.
   */
  readonly id?: string;
  /** Texts per HTTP request; larger inputs are split. Default 256. */
  readonly maxBatchSize?: number;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch implementation. Default: the global `fetch`. */
  readonly fetch?: typeof fetch;
  /**
   * Where an omitted `apiKey` / `baseUrl` is looked up (`OPENAI_API_KEY`, `OPENAI_BASE_URL`),
   * once, at construction. Default `process.env`; `{}` ignores the environment.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Deadline of one `embed()` batch request, its retries included. Default 60,000 (a minute):
   * an embedding answers in well under a second, and tool search degrades to lexical search on a
   * failure sooner than a chat model's 10-minute default would let it.
   */
  readonly timeoutMs?: number;
  /**
   * Retries of a batch after a retryable failure (408, 409, 429, 5xx, a connection failure),
   * with exponential backoff that honours `retry-after`. Default 0: the caller decides (the error
   * says `retryable`), and a search that waits for retries keeps the model waiting.
   */
  readonly maxRetries?: number;
  /**
   * Cap of one batch's response body in bytes. Default 64 MiB: 256 vectors of 3,072 numbers
   * written as JSON text take about 16 MB.
   */
  readonly maxResponseBytes?: number;
}

/** Every option name of {@link OpenAiCompatibleEmbeddingModelOptions}, to refuse a misspelt one. */
const OPTION_NAMES = optionNames<OpenAiCompatibleEmbeddingModelOptions>()(
  'model',
  'baseUrl',
  'apiKey',
  'dimensions',
  'id',
  'maxBatchSize',
  'headers',
  'fetch',
  'env',
  'timeoutMs',
  'maxRetries',
  'maxResponseBytes',
);
const DEFAULT_EMBEDDING_TIMEOUT_MS = 60_000;
const DEFAULT_EMBEDDING_RESPONSE_BYTES = 64 * 1024 * 1024;

const PROVIDER = 'openai-compatible-embeddings';
const EMBEDDINGS_ENVIRONMENT = {
  providerLabel: 'OpenAI embeddings',
  apiKeyVariable: 'OPENAI_API_KEY',
  baseUrlVariable: 'OPENAI_BASE_URL',
  defaultBaseUrl: 'https://api.openai.com/v1',
  publicHost: 'api.openai.com',
};

/**
 * Embeddings from any server speaking the OpenAI embeddings API (`POST {baseUrl}/embeddings`):
 * OpenAI, Azure-compatible gateways, Ollama (`http://localhost:11434/v1`), vLLM, LM Studio. Inputs
 * are sent in batches of `maxBatchSize`; vectors come back in input order. A failed request throws
 * a `ChatModelError` with the HTTP status (`retryable` for 408, 409, 429 and 5xx), built like the
 * chat adapters' errors: it names the address and what the error body said (the provider's
 * message, an HTML page's title, or the text), and never contains the API key, a credential
 * header's value or any value of `headers`. It is retried only when `maxRetries` says so;
 * redirects are refused, so the key and headers never reach another address.
 */
export class OpenAiCompatibleEmbeddingModel implements EmbeddingModel {
  /** {@inheritDoc EmbeddingModel.id} */
  readonly id: string;
  /** The embedding model name sent with each request. */
  readonly model: string;
  /** The API root. */
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #errors: ProviderErrors;
  readonly #dimensions: number | undefined;
  readonly #maxBatchSize: number;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #transport: ProviderTransport;

  constructor(options: OpenAiCompatibleEmbeddingModelOptions) {
    rejectUnknownOptions(options, OPTION_NAMES, 'OpenAiCompatibleEmbeddingModel');
    if (typeof options?.model !== 'string' || options.model.trim() === '') {
      throw new InvalidArgumentError('model is required');
    }
    const maxBatchSize = options.maxBatchSize ?? 256;
    if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) {
      throw new InvalidArgumentError('maxBatchSize must be a positive integer');
    }
    const maxRetries = options.maxRetries ?? 0;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new InvalidArgumentError('maxRetries must be an integer >= 0');
    }
    const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_EMBEDDING_RESPONSE_BYTES;
    if (!Number.isInteger(maxResponseBytes) || maxResponseBytes < 1) {
      throw new InvalidArgumentError('maxResponseBytes must be a positive integer');
    }
    const connection = resolveProviderConnection(
      { apiKey: options.apiKey, baseUrl: options.baseUrl, env: options.env },
      EMBEDDINGS_ENVIRONMENT,
    );
    this.model = options.model;
    this.id =
      options.id ??
      (options.dimensions === undefined ? options.model : `${options.model}@${options.dimensions}`);
    this.baseUrl = connection.baseUrl;
    this.#apiKey = connection.apiKey;
    this.#dimensions = options.dimensions;
    this.#maxBatchSize = maxBatchSize;
    this.#headers = options.headers ?? {};
    this.#errors = new ProviderErrors(
      PROVIDER,
      credentialSecrets(this.#apiKey, this.#requestHeaders(), this.#headers),
    );
    // The transport refuses redirects, caps the body and describes a failed response the way
    // the chat adapters do.
    this.#transport = new ProviderTransport({
      errors: this.#errors,
      headers: this.#requestHeaders(),
      fetch: options.fetch,
      maxRetries,
      timeoutMs: options.timeoutMs ?? DEFAULT_EMBEDDING_TIMEOUT_MS,
      maxResponseBytes,
    });
  }

  /** {@inheritDoc EmbeddingModel.embed} */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.#maxBatchSize) {
      const batch = texts.slice(start, start + this.#maxBatchSize);
      vectors.push(...(await this.#embedBatch(batch, options.signal)));
    }
    return vectors;
  }

  async #embedBatch(
    input: readonly string[],
    signal: AbortSignal | undefined,
  ): Promise<number[][]> {
    const body: Record<string, unknown> = { model: this.model, input, encoding_format: 'float' };
    if (this.#dimensions !== undefined) body.dimensions = this.#dimensions;
    return this.#transport.postJson(
      `${this.baseUrl}/embeddings`,
      body,
      (answer) => this.#parseVectors(answer, input.length),
      signal,
    );
  }

  #parseVectors(parsed: unknown, expected: number): number[][] {
    const data = (parsed as { data?: unknown })?.data;
    if (!Array.isArray(data) || data.length !== expected) {
      throw this.#malformed(`expected ${expected} embeddings`);
    }
    const vectors = new Array<number[]>(expected);
    data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
      const index = typeof item?.index === 'number' ? item.index : position;
      const embedding = item?.embedding;
      if (
        !Number.isInteger(index) ||
        index < 0 ||
        index >= expected ||
        vectors[index] !== undefined ||
        !Array.isArray(embedding) ||
        !embedding.every((value) => typeof value === 'number')
      ) {
        throw this.#malformed('an embedding is missing or not a number array');
      }
      vectors[index] = embedding as number[];
    });
    return vectors;
  }

  #malformed(reason: string): ChatModelError {
    return this.#errors.create({
      message: `embeddings response is malformed: ${reason}`,
      retryable: false,
    });
  }

  #requestHeaders(): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(this.#apiKey === undefined ? {} : { authorization: `Bearer ${this.#apiKey}` }),
      ...this.#headers,
    };
  }
}
