import type { ProviderChatModelOptions } from '../internal/provider-chat-model-options.js';
import { providerTransportOptions } from '../internal/provider-chat-model-options.js';
import type { ProviderErrors } from '../internal/provider-errors.js';
import { ProviderTransport } from '../internal/provider-transport.js';

/** What an OpenAI request's headers are made of, in both APIs' model options. */
export interface OpenAiConnectionOptions extends ProviderChatModelOptions {
  organization?: string | undefined;
  project?: string | undefined;
}

/**
 * The transport of an OpenAI model (Chat Completions or Responses): the bearer key and the
 * organization and project headers, with the retries, timeouts and error scrubbing every
 * provider shares.
 */
export function openAiTransport(options: OpenAiConnectionOptions): {
  transport: ProviderTransport;
  errors: ProviderErrors;
} {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  if (options.organization) headers['openai-organization'] = options.organization;
  if (options.project) headers['openai-project'] = options.project;
  const transportOptions = providerTransportOptions('openai', options, headers);
  return { transport: new ProviderTransport(transportOptions), errors: transportOptions.errors };
}
