import { ChatModelError } from '../errors/index.js';
import { secretForms } from './secret-forms.js';
import { urlWithoutCredentials } from './url-without-credentials.js';

/** Longest provider-written text (an error body's message, an error event's message) kept in an error. */
export const MAX_PROVIDER_DETAIL_LENGTH = 500;

/** What {@link ProviderErrors.create} needs to build one error. */
export interface ProviderErrorOptions {
  /** toolloop's own description of the failure. */
  message: string;
  /** Text the provider wrote (an error message, a status text): scrubbed, then cut to 500 characters. */
  detail?: string | undefined;
  status?: number | undefined;
  retryable: boolean;
  cause?: unknown;
}

/**
 * The one place a provider adapter builds a {@link ChatModelError}: every message (toolloop's
 * own words and the provider's text alike) has every credential removed first, in every form a
 * server may echo it, and only then is the provider's text cut to length, so no part of a key
 * survives a cut. Each adapter holds one, made with its API key and every credential header value.
 */
export class ProviderErrors {
  /** Provider name used in errors, e.g. `'openai'`. */
  readonly provider: string;
  readonly #forms: readonly string[];

  constructor(provider: string, secrets: Iterable<string | undefined> = []) {
    this.provider = provider;
    this.#forms = secretForms(secrets);
  }

  /** `text` with every secret replaced by `[redacted]`. */
  scrub(text: string): string {
    let scrubbed = text;
    for (const form of this.#forms) {
      if (scrubbed.includes(form)) scrubbed = scrubbed.split(form).join('[redacted]');
    }
    return scrubbed;
  }

  /** A scrubbed error: `message`, then `: ` and the scrubbed, shortened `detail` when there is one. */
  create(options: ProviderErrorOptions): ChatModelError {
    const detail =
      options.detail === undefined || options.detail.trim() === ''
        ? ''
        : `: ${shorten(this.scrub(options.detail), MAX_PROVIDER_DETAIL_LENGTH)}`;
    return new ChatModelError({
      provider: this.provider,
      message: this.scrub(options.message) + detail,
      ...(options.status === undefined ? {} : { status: options.status }),
      retryable: options.retryable,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
  }

  /**
   * A response that does not have the provider's documented shape: never retried (the same
   * server would answer the same way), and described without quoting the response.
   */
  malformed(problem: string, status?: number): ChatModelError {
    return this.create({
      message: `${this.provider} answered with a malformed response: ${problem}`,
      status,
      retryable: false,
    });
  }
}

/** `text` cut to `limit` characters with an ellipsis, never inside a surrogate pair. */
function shorten(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = limit;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * `POST https://host/path` for an error message: the method and the URL without user name,
 * password, query or fragment, where credentials and signed parameters may sit.
 */
export function requestTarget(method: string, url: string): string {
  return `${method} ${urlWithoutCredentials(url) ?? '(an invalid URL)'}`;
}
