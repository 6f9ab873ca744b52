import { InvalidArgumentError, InvalidToolInputError } from '../errors/index.js';
import { asToolExecutionError } from '../tools/create-tool-callback.js';
import { peekToolSignal } from '../tools/deferred-tool-signal.js';
import {
  type InferToolInput,
  isToolCallback,
  type JsonSchemaOutputDemand,
  parseToolArguments,
  type ToolCallback,
  type ToolCallOptions,
  type ToolContext,
  type ToolDefinition,
  type ToolInputSchema,
  type ToolInputSchemaBound,
  type ToolMetadata,
  type ToolResult,
} from '../tools/index.js';
import { executeOf } from '../tools/tool-execute.js';
import { ToolInputSchemaAugmenter } from './tool-input-schema-augmenter.js';

const EMPTY_CONTEXT: ToolContext = Object.freeze({ context: Object.freeze({}) });

/** What an {@link AugmentedArgumentConsumer} receives for each call of an augmented tool. */
export interface AugmentedArgumentEvent<Arguments = Record<string, unknown>> {
  /** The augmented tool's definition (the schema with the extra fields). */
  readonly toolDefinition: ToolDefinition;
  /** The model's argument text, exactly as it came. */
  readonly rawInput: string;
  /** The extra fields, validated against their schema (and transformed by it, for Zod). */
  readonly arguments: Arguments;
}

/**
 * Receives the extra fields of each call before the tool runs. What it throws (or rejects with)
 * becomes a `ToolExecutionError` of the tool, which the loop's exception processor turns into an
 * error result for the model; the tool is then not run.
 */
export type AugmentedArgumentConsumer<Arguments = Record<string, unknown>> = (
  event: AugmentedArgumentEvent<Arguments>,
) => void | Promise<void>;

/** How extra fields are added to tools and what happens to them on each call. */
export interface AugmentationOptions<Schema extends ToolInputSchemaBound = ToolInputSchema> {
  /**
   * The extra fields the model must fill in, as a Zod object (or another Standard Schema that
   * exposes JSON Schema) or a JSON Schema object, e.g. `z.object({ reasoning: z.string() })`.
   * A prepared {@link ToolInputSchemaAugmenter} is accepted too (shared by many tools).
   */
  readonly argumentSchema: Schema | ToolInputSchemaAugmenter;
  /** Receives the extra fields of every call; optional (the fields are still validated). */
  readonly argumentConsumer?: AugmentedArgumentConsumer<InferToolInput<Schema>>;
  /**
   * Remove the extra fields before the wrapped tool is called. Default `true`. With `false` the
   * tool receives the model's text unchanged, so its own validation must accept unknown fields
   * (a Zod `z.object` strips them; a JSON Schema tool's closed schema rejects them).
   */
  readonly removeExtraArgumentsAfterProcessing?: boolean;
}

/** Intersected with augmentation options: their `argumentSchema` must be one toolloop can use. */
export interface ArgumentSchemaDemand<Schema> {
  readonly argumentSchema: JsonSchemaOutputDemand<Schema> | ToolInputSchemaAugmenter;
}

/**
 * Wraps one {@link ToolCallback} so that the model fills in extra fields (reasoning, confidence,
 * an agent id…) on every call of it, without changing the tool.
 *
 * The wrapper's definition has the tool's name and description and its input schema with the
 * extra fields merged in; its metadata is the wrapped tool's own (`returnDirect`, `sequential`,
 * `timeoutMs` and the rest are kept). On each call it parses the model's JSON, validates the
 * extra fields, hands them to the consumer, then calls the wrapped tool with only its own
 * arguments (unless `removeExtraArgumentsAfterProcessing` is `false`). Bad extra fields are an
 * `InvalidToolInputError`, so the model is told and may retry. The wrapped tool is never modified,
 * so one tool can be wrapped differently for different clients.
 */
export class AugmentedToolCallback<Schema extends ToolInputSchemaBound = ToolInputSchema>
  implements ToolCallback
{
  /** The wrapped tool's name and description, with the augmented input schema. */
  readonly definition: ToolDefinition;
  /** The wrapped tool's metadata, unchanged. */
  readonly metadata: ToolMetadata;
  /** The wrapped tool. */
  readonly delegate: ToolCallback;
  readonly #augmenter: ToolInputSchemaAugmenter;
  readonly #consumer: AugmentedArgumentConsumer<InferToolInput<Schema>> | undefined;
  readonly #removeExtraArguments: boolean;

  /**
   * @throws InvalidArgumentError when `delegate` is not a `ToolCallback` or options are missing.
   * @throws ToolDefinitionError when the extra fields are not a usable object schema or one of
   *   them clashes with a property of the tool.
   */
  constructor(
    delegate: ToolCallback,
    options: AugmentationOptions<Schema> & ArgumentSchemaDemand<Schema>,
  ) {
    if (!isToolCallback(delegate)) {
      throw new InvalidArgumentError('AugmentedToolCallback needs a ToolCallback to wrap');
    }
    if (options?.argumentSchema === undefined) {
      throw new InvalidArgumentError('AugmentedToolCallback needs an argumentSchema');
    }
    if (options.argumentConsumer !== undefined && typeof options.argumentConsumer !== 'function') {
      throw new InvalidArgumentError('argumentConsumer must be a function');
    }
    this.#augmenter =
      options.argumentSchema instanceof ToolInputSchemaAugmenter
        ? options.argumentSchema
        : new ToolInputSchemaAugmenter(options.argumentSchema as ToolInputSchema);
    this.#consumer = options.argumentConsumer;
    this.#removeExtraArguments = options.removeExtraArgumentsAfterProcessing ?? true;
    this.delegate = delegate;
    const { name, description, inputSchema } = delegate.definition;
    this.definition = Object.freeze({
      name,
      description,
      inputSchema: this.#augmenter.augment(inputSchema, name),
    });
    const metadata = delegate.metadata ?? Object.freeze({});
    const needsApproval = metadata.needsApproval;
    // The wrapped tool's approval function judges its own arguments, not the extra fields.
    this.metadata =
      typeof needsApproval === 'function'
        ? Object.freeze({
            ...metadata,
            needsApproval: (input: Record<string, unknown>, context: ToolContext) =>
              needsApproval(this.#augmenter.omit(input), context),
          })
        : metadata;
  }

  /**
   * An approval edit names the tool's own arguments; the extra fields the model wrote are kept
   * unless the edit gives them too (then the edit's values are used and checked).
   */
  completeEditedArguments(
    edited: Record<string, unknown>,
    original: Record<string, unknown>,
  ): Record<string, unknown> {
    return { ...this.#augmenter.pick(original), ...edited };
  }

  /**
   * Parses the text (or takes the deprecated `validatedInput`), then runs as {@link execute};
   * resolves to the text form of the wrapped tool's result.
   */
  async call(input: string, context?: ToolContext, options?: ToolCallOptions): Promise<string> {
    let value = options?.validatedInput;
    if (value === undefined) {
      const parsed = parseToolArguments(input);
      if (!parsed.ok) {
        throw new InvalidToolInputError({ toolName: this.definition.name, issues: parsed.issues });
      }
      value = parsed.value;
    }
    const result = await this.#run(value, input, context, options);
    return typeof result === 'string' ? result : result.text;
  }

  /**
   * Validates and hands over the extra fields of input already checked against the augmented
   * schema (which holds the tool's own), then runs the wrapped tool on its own arguments: its
   * `execute` when it has one (its result, parts included, comes back as it is), else its `call`.
   */
  execute(
    input: Record<string, unknown>,
    context: ToolContext,
    options?: ToolCallOptions,
  ): Promise<string | ToolResult> {
    return this.#run(input, context.rawArguments ?? JSON.stringify(input), context, options);
  }

  async #run(
    value: Record<string, unknown>,
    rawInput: string,
    context: ToolContext | undefined,
    options: ToolCallOptions | undefined,
  ): Promise<string | ToolResult> {
    const toolName = this.definition.name;
    const checked = await this.#augmenter.validate(this.#augmenter.pick(value));
    if (!checked.ok) throw new InvalidToolInputError({ toolName, issues: checked.issues });
    if (this.#consumer !== undefined) {
      try {
        await this.#consumer({
          toolDefinition: this.definition,
          rawInput,
          arguments: checked.value as InferToolInput<Schema>,
        });
      } catch (error) {
        throw asToolExecutionError(toolName, error, peekToolSignal(context));
      }
    }
    const onProgress = options?.onProgress;
    const delegateOptions = onProgress === undefined ? {} : { onProgress };
    // The wrapped tool's schema may refuse the extra fields: it checks the whole text itself.
    if (!this.#removeExtraArguments) return this.delegate.call(rawInput, context, delegateOptions);
    const ownArguments = this.#augmenter.omit(value);
    const execute = executeOf(this.delegate);
    if (execute !== undefined) {
      return execute.call(this.delegate, ownArguments, context ?? EMPTY_CONTEXT, delegateOptions);
    }
    return this.delegate.call(JSON.stringify(ownArguments), context, delegateOptions);
  }
}
