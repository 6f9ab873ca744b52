import type { ChatOptions, ToolChoice } from '../model/index.js';
import { credentialSecrets } from './credential-secrets.js';
import { ProviderErrors } from './provider-errors.js';
import type { FetchFunction, ProviderTransportOptions } from './provider-transport.js';
import type { RetryDelayOptions } from './retry-delay.js';
import type { SchemaAdaptation } from './tool-schema-adaptation.js';

/** Options both provider chat models accept. */
export interface ProviderChatModelOptions {
  /**
   * Sent as the provider's credential header; never part of an error message (nor is any value
   * of `headers`). Omitted (or blank), the provider's key variable of `env` is used
   * (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`); the provider's public API host needs one.
   */
  apiKey?: string | undefined;
  /**
   * The API root, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. Omitted, the
   * provider's base URL variable of `env` is used (`OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`).
   */
  baseUrl?: string | undefined;
  /** Default model name. */
  model?: string | undefined;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
  /** Default tool choice; a request's `options.toolChoice` wins. */
  toolChoice?: ToolChoice | undefined;
  /** `false` asks the model for at most one tool call per response. */
  parallelToolCalls?: boolean | undefined;
  /** Send tools in the provider's strict schema mode (schemas adapted and reported). */
  strictTools?: boolean | undefined;
  /** Provider-specific body fields merged into every request last (e.g. `top_k`, `reasoning_effort`). */
  extraBody?: Record<string, unknown> | undefined;
  /**
   * Extra HTTP headers of every request. Every value is treated as a secret (a gateway's
   * credential may have any name): it is redacted from every error message.
   */
  headers?: Record<string, string> | undefined;
  /**
   * Deadline of a whole `call()` or `stream()`: every attempt, every wait between attempts, the
   * whole body or stream; nothing the server sends pushes it back. Default 600,000 (10 minutes).
   * Raise it for streams that legitimately run longer (tens of thousands of output tokens);
   * `Infinity` turns it off.
   */
  timeoutMs?: number | undefined;
  /** Deadline of one HTTP attempt. Default: none beyond `timeoutMs`. */
  attemptTimeoutMs?: number | undefined;
  /**
   * Longest silence of a stream: until its response starts, and between two events that carry
   * data (comment lines, Anthropic `ping` events and bytes that do not complete an event are not
   * data); for a non-streamed call, the longest wait for the body once the headers arrived (an
   * error's body too: a failure status whose body stalls fails with that status). The
   * attempt then fails and is retried while nothing was yielded and time remains. Default
   * 300,000 (5 minutes).
   */
  idleTimeoutMs?: number | undefined;
  /** Retries after the first attempt on 408/409/429/5xx and connection failures. Default 2. */
  maxRetries?: number | undefined;
  /** Backoff settings of the retries. */
  retryDelay?: RetryDelayOptions | undefined;
  /** Cap of a response body (and of a whole stream) in bytes. Default 10 MB. */
  maxResponseBytes?: number | undefined;
  /** A `fetch` implementation (proxies, tests, instrumentation). Default: the global `fetch`. */
  fetch?: FetchFunction | undefined;
  /** Called once per tool definition whose schema had to be changed for the provider. */
  onSchemaAdaptation?: ((adaptation: SchemaAdaptation) => void) | undefined;
  /**
   * Where omitted `apiKey`, `baseUrl` (and, for OpenAI, `model`) are looked up, once, when the
   * model is constructed. Default `process.env`; pass `{}` to ignore the environment, or a
   * tenant's own variables.
   */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** Keeps only the entries whose value is not `undefined`. */
export function definedEntries<T extends object>(value: T): Partial<T> {
  const result: Partial<T> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry !== undefined) (result as Record<string, unknown>)[key] = entry;
  }
  return result;
}

/**
 * The request defaults a provider model exposes as `defaultOptions`: the common options, with
 * the provider's default model (and `maxTokens`, where the API requires one).
 */
export function providerDefaultOptions<Options extends ChatOptions>(
  options: ProviderChatModelOptions,
  defaults: { model: string; maxTokens?: number },
  extra: Omit<Options, keyof ChatOptions> | Record<string, never> = {},
): Options {
  return definedEntries({
    ...extra,
    model: options.model ?? defaults.model,
    temperature: options.temperature,
    maxTokens: options.maxTokens ?? defaults.maxTokens,
    toolChoice: options.toolChoice,
    parallelToolCalls: options.parallelToolCalls,
    strictTools: options.strictTools,
    extraBody: options.extraBody,
  }) as Options;
}

/**
 * The transport settings of a provider model: its headers, and the {@link ProviderErrors} that
 * keeps the API key, every credential header value and every user-given header value out of
 * every error.
 */
export function providerTransportOptions(
  provider: string,
  options: ProviderChatModelOptions,
  headers: Record<string, string>,
): ProviderTransportOptions {
  return {
    errors: new ProviderErrors(
      provider,
      credentialSecrets(options.apiKey, headers, options.headers ?? {}),
    ),
    headers,
    fetch: options.fetch,
    maxRetries: options.maxRetries,
    timeoutMs: options.timeoutMs,
    attemptTimeoutMs: options.attemptTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs,
    retryDelay: options.retryDelay,
    maxResponseBytes: options.maxResponseBytes,
  };
}
