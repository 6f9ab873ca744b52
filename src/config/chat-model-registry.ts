import { InvalidArgumentError } from '../errors/index.js';
import type { ChatModel } from '../model/index.js';
import type { ProviderSettings } from './toolloop-config.js';

/** What a provider's factory receives: the model name of the id, and the provider's settings. */
export interface ChatModelSettings extends ProviderSettings {
  /** The environment the provider reads its conventional variables from; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * Makes a provider's chat model. `model` is the part after `provider:` in the id (`undefined`
 * for an id that names only the provider: the settings' `model`, then the provider's own
 * default, apply).
 */
export type ChatModelFactory = (
  model: string | undefined,
  settings: ChatModelSettings,
) => ChatModel | Promise<ChatModel>;

/** A model id split into its provider and model name. */
export interface ParsedModelId {
  readonly provider: string;
  readonly model: string | undefined;
}

/** `'openai:gpt-4.1-mini'` → `openai` + `gpt-4.1-mini`; `'ollama:llama3:8b'` keeps `llama3:8b`. */
export function parseModelId(id: string): ParsedModelId {
  const colon = id.indexOf(':');
  const provider = (colon < 0 ? id : id.slice(0, colon)).trim().toLowerCase();
  const model = colon < 0 ? undefined : id.slice(colon + 1).trim() || undefined;
  if (!/^[a-z][a-z0-9-]*$/.test(provider)) {
    throw new InvalidArgumentError(
      `model id ${JSON.stringify(id)} must start with a provider name, e.g. 'openai:gpt-4.1-mini'`,
    );
  }
  return { provider, model };
}

const BUILT_IN: Readonly<Record<string, ChatModelFactory>> = {
  async openai(model, settings) {
    const { OpenAiChatModel } = await import('../openai/index.js');
    return new OpenAiChatModel({ ...settings, model: model ?? settings.model });
  },
  async anthropic(model, settings) {
    const { AnthropicChatModel } = await import('../anthropic/index.js');
    return new AnthropicChatModel({ ...settings, model: model ?? settings.model });
  },
  async 'openai-responses'(model, settings) {
    const { OpenAiResponsesChatModel } = await import('../openai/index.js');
    return new OpenAiResponsesChatModel({ ...settings, model: model ?? settings.model });
  },
  async google(model, settings) {
    const { GoogleChatModel } = await import('../google/index.js');
    return new GoogleChatModel({ ...settings, model: model ?? settings.model });
  },
};

/**
 * Resolves model ids such as `'openai:gpt-4.1-mini'` or `'anthropic:claude-sonnet-4-5'` to chat
 * models. It knows `openai` (Chat Completions, any OpenAI-compatible server through its base
 * URL), `openai-responses` (OpenAI's Responses API), `anthropic` and `google` (the Gemini API);
 * `register()` adds others or replaces these. Provider modules are imported only when a model
 * of theirs is created. Each registry is a plain object: nothing is shared between registries.
 *
 * ```ts
 * import { ChatModelRegistry } from 'toolloop/config';
 * import { OpenAiChatModel } from 'toolloop/openai';
 * const registry = new ChatModelRegistry().register('ollama', (model, settings) =>
 *   new OpenAiChatModel({ ...settings, baseUrl: settings.baseUrl ?? 'http://127.0.0.1:11434/v1', model }),
 * );
 * const model = await registry.create('ollama:llama3.2');
 * ```
 */
export class ChatModelRegistry {
  readonly #factories = new Map<string, ChatModelFactory>(Object.entries(BUILT_IN));

  /** Adds a provider, or replaces one (the built-in ones included). */
  register(provider: string, factory: ChatModelFactory): this {
    const { provider: name, model } = parseModelId(provider);
    if (model !== undefined || typeof factory !== 'function') {
      throw new InvalidArgumentError(
        'register(provider, factory) takes a provider name and a function',
      );
    }
    this.#factories.set(name, factory);
    return this;
  }

  /** The provider names this registry resolves, sorted. */
  get providers(): string[] {
    return [...this.#factories.keys()].sort();
  }

  /** True when the id's provider is registered. */
  has(id: string): boolean {
    return this.#factories.has(parseModelId(id).provider);
  }

  /**
   * Creates the chat model of an id. Throws an `InvalidArgumentError` naming the registered
   * providers when the id's provider is unknown.
   */
  async create(id: string, settings: ChatModelSettings = {}): Promise<ChatModel> {
    const { provider, model } = parseModelId(id);
    const factory = this.#factories.get(provider);
    if (factory === undefined) {
      throw new InvalidArgumentError(
        `unknown model provider '${provider}' in ${JSON.stringify(id)}: registered are ${this.providers.join(', ')}`,
      );
    }
    return factory(model, settings);
  }
}
