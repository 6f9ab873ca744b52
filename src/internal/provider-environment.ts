import { InvalidArgumentError } from '../errors/index.js';

/** Environment variables as `process.env` holds them; a provider model reads only its own names. */
export type ProviderEnvironment = Readonly<Record<string, string | undefined>>;

/** The connection settings a provider model may take from its options or from the environment. */
export interface ProviderConnectionOptions {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  model?: string | undefined;
  env?: ProviderEnvironment | undefined;
}

/** The conventional environment of one provider, and the host that refuses requests without a key. */
export interface ProviderEnvironmentSpec {
  /** Shown in the error, e.g. `'OpenAI'`. */
  providerLabel: string;
  apiKeyVariable: string;
  /**
   * Every variable the key may come from, the first one set winning, when there are several
   * (Gemini: `GOOGLE_API_KEY`, then `GEMINI_API_KEY`, as Google's SDK reads them). Default: only
   * `apiKeyVariable`.
   */
  apiKeyVariables?: readonly string[];
  baseUrlVariable: string;
  /** Only the providers whose SDKs read a model variable have one. */
  modelVariable?: string;
  defaultBaseUrl: string;
  /** The public API host (and its regional subdomains): a key is required there. */
  publicHost: string;
}

/** What a provider model connects with once options and environment are merged. */
export interface ProviderConnection {
  apiKey: string | undefined;
  /** Without trailing slashes. */
  baseUrl: string;
  model: string | undefined;
}

/**
 * Merges a provider model's options with its conventional environment variables: an option that
 * is given (not `undefined`, not empty) wins, otherwise the variable of `options.env` (default
 * `process.env`) is used, otherwise the provider's default. Throws an `InvalidArgumentError`
 * before any request when the base URL is not an http(s) URL or when the provider's public host
 * would be called without a key; other hosts (local OpenAI-compatible servers, gateways) may
 * need none. Messages name the option and the variable, never their values.
 */
export function resolveProviderConnection(
  options: ProviderConnectionOptions,
  spec: ProviderEnvironmentSpec,
): ProviderConnection {
  const env = options.env ?? globalThis.process?.env ?? {};
  const fromEnv = (name: string | undefined): string | undefined =>
    name === undefined ? undefined : given(env[name]);
  const keyVariables = spec.apiKeyVariables ?? [spec.apiKeyVariable];
  let apiKey = given(options.apiKey);
  for (const variable of keyVariables) apiKey ??= fromEnv(variable);
  const baseUrlSource =
    given(options.baseUrl) !== undefined
      ? 'the baseUrl option'
      : fromEnv(spec.baseUrlVariable) !== undefined
        ? spec.baseUrlVariable
        : undefined;
  const baseUrl = (
    given(options.baseUrl) ??
    fromEnv(spec.baseUrlVariable) ??
    spec.defaultBaseUrl
  ).replace(/\/+$/, '');
  const model = given(options.model) ?? fromEnv(spec.modelVariable);

  const host = httpHost(baseUrl);
  if (host === undefined) {
    throw new InvalidArgumentError(
      `${spec.providerLabel} base URL from ${baseUrlSource ?? 'the default'} is not an http(s) URL`,
    );
  }
  if (apiKey === undefined && (host === spec.publicHost || host.endsWith(`.${spec.publicHost}`))) {
    throw new InvalidArgumentError(
      `${spec.providerLabel} needs an API key for ${spec.publicHost}: set the ` +
        `${keyVariables.join(' or ')} environment variable or pass the apiKey option ` +
        `(for a server that needs no key, set ${spec.baseUrlVariable} or the baseUrl option to its URL)`,
    );
  }
  return { apiKey, baseUrl, model };
}

/** `undefined` for an absent or blank value (an `.env` line `OPENAI_API_KEY=` means "not set"). */
function given(value: string | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function httpHost(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return parsed.hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
