import { InvalidArgumentError } from '../errors/index.js';
import {
  type CollectedToolSources,
  collectToolSources,
  resolveToolCallbacks,
  type ToolCallback,
  type ToolCallbackProvider,
  type ToolCallbackProviderRequest,
  type ToolInputSchema,
  type ToolInputSchemaBound,
  type ToolSource,
} from '../tools/index.js';
import {
  type ArgumentSchemaDemand,
  type AugmentationOptions,
  AugmentedToolCallback,
} from './augmented-tool-callback.js';
import { ToolInputSchemaAugmenter } from './tool-input-schema-augmenter.js';

/** What {@link AugmentedToolCallbackProvider} wraps, and how. */
export interface AugmentedToolCallbackProviderOptions<
  Schema extends ToolInputSchemaBound = ToolInputSchema,
> extends AugmentationOptions<Schema> {
  /**
   * The tools to augment: `tool()` callbacks, objects with `@tool` methods,
   * `ToolCallbackProvider`s (an MCP provider, for example) or arrays of these.
   */
  readonly tools: ToolSource;
}

/**
 * A {@link ToolCallbackProvider} that adds the same extra fields to every tool of its sources (see
 * {@link AugmentedToolCallback}). Pass it to `ChatClient.create(model, { tools: [provider] })` or
 * `.tools(provider)` like any other tool source.
 *
 * Callbacks and `@tool` objects are wrapped once, when the provider is built, so a clash fails
 * right away; tools of wrapped providers are listed again on every request (they may change) and
 * wrapped the first time each one is seen.
 */
export class AugmentedToolCallbackProvider<Schema extends ToolInputSchemaBound = ToolInputSchema>
  implements ToolCallbackProvider
{
  readonly #options: AugmentationOptions<Schema> & {
    readonly argumentSchema: ToolInputSchemaAugmenter;
  };
  readonly #fixed: ToolCallback[];
  readonly #sources: CollectedToolSources;
  readonly #wrapped = new WeakMap<ToolCallback, ToolCallback>();

  /**
   * @throws InvalidArgumentError when `tools` or `argumentSchema` is missing or a source is not a
   *   tool source.
   * @throws ToolDefinitionError when the extra fields are not a usable object schema or clash with
   *   a property of one of the fixed tools.
   */
  constructor(
    options: AugmentedToolCallbackProviderOptions<Schema> & ArgumentSchemaDemand<Schema>,
  ) {
    if (options?.tools === undefined || options.tools === null) {
      throw new InvalidArgumentError('AugmentedToolCallbackProvider needs tools to wrap');
    }
    if (options.argumentSchema === undefined) {
      throw new InvalidArgumentError('AugmentedToolCallbackProvider needs an argumentSchema');
    }
    const augmenter =
      options.argumentSchema instanceof ToolInputSchemaAugmenter
        ? options.argumentSchema
        : new ToolInputSchemaAugmenter(options.argumentSchema as ToolInputSchema);
    this.#options = { ...options, argumentSchema: augmenter };
    const collected = collectToolSources([options.tools]);
    this.#sources = { callbacks: [], providers: collected.providers };
    this.#fixed = collected.callbacks.map((callback) => this.#wrap(callback));
  }

  /** The fixed tools' wrappers, then those of each wrapped provider's current tools. */
  async getToolCallbacks(request?: ToolCallbackProviderRequest): Promise<ToolCallback[]> {
    if (this.#sources.providers.length === 0) return [...this.#fixed];
    const reservedNames = new Set<string>(request?.reservedNames);
    for (const callback of this.#fixed) reservedNames.add(callback.definition.name);
    const signal = request?.signal;
    const provided = await resolveToolCallbacks(this.#sources, {
      reservedNames,
      ...(signal === undefined ? {} : { signal }),
    });
    return [...this.#fixed, ...provided.map((callback) => this.#wrap(callback))];
  }

  #wrap(callback: ToolCallback): ToolCallback {
    let wrapper = this.#wrapped.get(callback);
    if (wrapper === undefined) {
      wrapper = new AugmentedToolCallback<Schema>(callback, this.#options);
      this.#wrapped.set(callback, wrapper);
    }
    return wrapper;
  }
}
