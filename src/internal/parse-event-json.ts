import type { ProviderErrors } from './provider-errors.js';

/** The JSON of a stream event's data; data that does not parse is the provider's malformed answer. */
export function parseEventJson(data: string, errors: ProviderErrors): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw errors.malformed('a stream event is not JSON');
  }
}
