import {
  AbortError,
  IllegalStateError,
  InvalidArgumentError,
  NoSuchToolError,
} from '../errors/index.js';
import { optionNames, rejectUnknownOptions } from '../internal/option-names.js';
import type { AssistantMessage, Message, ToolCall, ToolResponse } from '../messages/index.js';
import type { ChatResponse, Generation, Prompt, ToolCallingChatOptions } from '../model/index.js';
import { validateJsonSchema } from '../tools/input/json-schema-validator.js';
import { parseToolArguments } from '../tools/input/parse-tool-arguments.js';
import type { ToolCallback, ToolCallbackResolver, ToolDefinition } from '../tools/tool-callback.js';
import {
  capToolResultText,
  DEFAULT_MAX_TOOL_RESULT_BYTES,
  MIN_MAX_TOOL_RESULT_BYTES,
} from './cap-tool-result-text.js';
import { DEFAULT_MAX_TOOL_RESULT_MEDIA_BYTES } from './rich-tool-response.js';
import { runDurableToolCallBatch } from './run-durable-tool-call-batch.js';
import {
  type PlannedToolCall,
  runToolCallBatch,
  type ToolCallBatchSettings,
} from './run-tool-call-batch.js';
import { emitLimitsExceeded, emitNotExecuted } from './tool-batch-events.js';
import { ToolCallLimitExceededError } from './tool-call-limit-exceeded-error.js';
import {
  findToolCallLimitBreaches,
  resolveToolCallLimits,
  type ToolCallLimitBreach,
  type ToolCallLimits,
  type ToolCallLimitsOptions,
} from './tool-call-limits.js';
import type { ToolCallObserver } from './tool-call-observer.js';
import type {
  ExecuteToolCallsOptions,
  ToolCallingManager,
  ToolExecutionResult,
} from './tool-calling-manager.js';
import {
  createDefaultToolExecutionExceptionProcessor,
  type ToolExecutionExceptionProcessor,
} from './tool-execution-exception-processor.js';

/** What the manager does with a call to a tool that is not attached to the request. */
export type UnknownToolBehavior = 'error-response' | 'throw';

/** Options of {@link createToolCallingManager}; every one is optional. */
export interface ToolCallingManagerOptions {
  /**
   * Looks up tools that are not attached to the request; consulted only when
   * `resolutionFallbackEnabled` is true. Default: resolves nothing.
   */
  toolCallbackResolver?: ToolCallbackResolver;
  /**
   * Let a tool known to the resolver but not attached to the request run. Default `false`: only
   * attached tools can run.
   */
  resolutionFallbackEnabled?: boolean;
  /**
   * Turns a tool's error into the text the model receives, or throws to end the request.
   * Default: {@link createDefaultToolExecutionExceptionProcessor} with `alwaysThrow` set from
   * `throwExceptionOnError`.
   */
  exceptionProcessor?: ToolExecutionExceptionProcessor;
  /**
   * Shorthand for the default processor's `alwaysThrow`: tool errors end the request instead of
   * reaching the model. Cannot be combined with `exceptionProcessor`. Default `false`.
   */
  throwExceptionOnError?: boolean;
  /** Per-turn call limits. Default: 40 per tool, 150 in total, `'THROW'` on a breach. */
  limits?: ToolCallLimitsOptions;
  /**
   * `'error-response'` answers a call to an unknown, unattached or unnamed tool with an error
   * result naming the attached tools; `'throw'` fails the request with a `NoSuchToolError` (Spring
   * AI's behaviour). Default `'error-response'`.
   */
  onUnknownTool?: UnknownToolBehavior;
  /** Most calls of one batch running at the same time; a positive integer or `Infinity`. Default 8. */
  maxConcurrency?: number;
  /**
   * Timeout in milliseconds for tools without their own `metadata.timeoutMs`. Default: none, a
   * tool may run as long as it likes (`Infinity` says the same). Any length is kept exactly,
   * beyond `setTimeout`'s 24.8-day maximum too.
   */
  defaultTimeoutMs?: number;
  /** Largest accepted argument text of one call, in UTF-8 bytes. Default 1 MiB. */
  maxArgumentBytes?: number;
  /**
   * Largest result or error text of one call handed to the model, in UTF-8 bytes: a longer one is
   * cut at a character boundary and ends with a notice saying how much the tool returned. An
   * integer of at least 256, or `Infinity` for no cap. Default
   * {@link DEFAULT_MAX_TOOL_RESULT_BYTES} (1 MiB).
   */
  maxResultBytes?: number;
  /**
   * Largest sum of inline media bytes (images, audio, files as base64 or `data:` URLs) of one
   * result: a result over it becomes an error result saying so, and nothing of it is kept. A
   * positive number or `Infinity`. Default {@link DEFAULT_MAX_TOOL_RESULT_MEDIA_BYTES} (10 MiB).
   */
  maxResultMediaBytes?: number;
  /** Called around every executed tool call (for observability). Default none. */
  observer?: ToolCallObserver;
}

/** Every option name of {@link ToolCallingManagerOptions}, to refuse a misspelt one. */
const OPTION_NAMES = optionNames<ToolCallingManagerOptions>()(
  'toolCallbackResolver',
  'resolutionFallbackEnabled',
  'exceptionProcessor',
  'throwExceptionOnError',
  'limits',
  'onUnknownTool',
  'maxConcurrency',
  'defaultTimeoutMs',
  'maxArgumentBytes',
  'maxResultBytes',
  'maxResultMediaBytes',
  'observer',
);

/** Default {@link ToolCallingManagerOptions.maxConcurrency}. */
export const DEFAULT_TOOL_CALL_CONCURRENCY = 8;

export { DEFAULT_MAX_TOOL_RESULT_BYTES, DEFAULT_MAX_TOOL_RESULT_MEDIA_BYTES };

/**
 * Creates the default {@link ToolCallingManager}: Spring AI's `DefaultToolCallingManager`
 * with toolloop's departures. `executeToolCalls` answers every call of the batch
 * with exactly one `ToolResponse`, at the call's position (`responses[i].id === calls[i].id`):
 *
 * - Limits are decided in call order before anything runs (Spring AI's counting rules).
 * - A call listed in `deniedToolCalls` (a human denied it) never runs: its error result carries
 *   the denial text.
 * - Never executed, answered with an error response (`isError: true`): a call that breaks a limit
 *   (`RETURN_ERROR_RESPONSE`); a call whose id an earlier call of the batch already used (the first
 *   one runs, each repeat gets its own error); an empty or unknown name, or a tool known only to
 *   the resolver while the fallback is off (the text lists the attached tools only); arguments
 *   that are not text (an object, a number, `null`: "arguments must be JSON text", never read
 *   as `{}`; so is a call marked `metadata.nonTextArguments`, the adapters' mark for arguments a
 *   provider sent as a JSON value, kept as its JSON text), not a JSON object, or fail the tool's
 *   input schema (issues with JSON-pointer paths);
 *   a call marked `metadata.truncated`, or whose arguments do not parse while the generation's
 *   finish reason is `'length'`; every call of a response whose finish reason is
 *   `'content_filter'` (OpenAI's content filter, Anthropic's `refusal`: the provider stopped the
 *   response). An `InvalidToolInputError` thrown by the tool is answered the same way.
 * - With `'THROW'`, the calls before the breach run, then a {@link ToolCallLimitExceededError} is
 *   thrown whose partial history answers every call: results before the breach, the breach text,
 *   then "not executed" errors for the calls after it (Spring AI leaves those unanswered).
 * - `returnDirect` is set only when every call of the batch ran and succeeded with a
 *   `returnDirect` tool; otherwise the results (error results included) go back to the model.
 * - Every error a tool throws goes through the exception processor (JavaScript has no checked /
 *   unchecked split; Spring AI processes only `ToolExecutionException`), an abort error
 *   of the tool's own (a sub-request it cancelled) included; whatever the processor throws ends
 *   the request. Only the caller's signal ends the request as an abort.
 * - Valid calls run concurrently up to `maxConcurrency` in call order; a `sequential` tool runs
 *   alone. A timeout aborts the call's signal and answers "Tool '<name>' timed out after N ms".
 *   The caller's abort keeps queued calls from starting, aborts running ones and rejects with an
 *   `AbortError`.
 * - With `durable` (a durable turn), every executed call runs as a step of the engine (see
 *   `runDurableToolCallBatch`).
 * - A tool input schema that cannot be compiled fails the request with a `ToolDefinitionError`.
 * - A call that cannot be answered in a valid transcript (not an object, an id that is not a
 *   non-empty string, a name that is not a string) fails the batch with an `IllegalStateError`
 *   before any call of it runs.
 *
 * Throws {@link InvalidArgumentError} for invalid options.
 */
export function createToolCallingManager(
  options: ToolCallingManagerOptions = {},
): ToolCallingManager {
  return new DefaultToolCallingManager(options);
}

const RESOLVES_NOTHING: ToolCallbackResolver = () => undefined;
// A model can write any name; messages quote at most this much of it.
const MAX_QUOTED_NAME_LENGTH = 100;
const MAX_LISTED_TOOL_NAMES = 50;
const MAX_LISTED_ISSUES = 20;
const NON_WHITESPACE = /\S/;
/** What a call whose arguments were not text is told (the parser's words for such a value). */
const NOT_TEXT_ISSUE = { path: '', message: 'arguments must be JSON text' };

class DefaultToolCallingManager implements ToolCallingManager {
  readonly #resolver: ToolCallbackResolver;
  readonly #fallback: boolean;
  readonly #processor: ToolExecutionExceptionProcessor;
  readonly #limits: ToolCallLimits;
  readonly #throwOnUnknownTool: boolean;
  readonly #maxConcurrency: number;
  readonly #defaultTimeoutMs: number | undefined;
  readonly #parseOptions: { maxBytes?: number };
  readonly #observer: ToolCallObserver | undefined;
  readonly #maxResultBytes: number;
  readonly #maxResultMediaBytes: number;

  constructor(options: ToolCallingManagerOptions) {
    rejectUnknownOptions(options, OPTION_NAMES, 'createToolCallingManager');
    if (options.exceptionProcessor !== undefined && options.throwExceptionOnError !== undefined) {
      throw new InvalidArgumentError(
        'throwExceptionOnError configures the default exception processor; it cannot be combined with exceptionProcessor',
      );
    }
    const onUnknownTool = options.onUnknownTool ?? 'error-response';
    if (onUnknownTool !== 'error-response' && onUnknownTool !== 'throw') {
      throw new InvalidArgumentError("onUnknownTool must be 'error-response' or 'throw'");
    }
    const maxConcurrency = options.maxConcurrency ?? DEFAULT_TOOL_CALL_CONCURRENCY;
    if (
      typeof maxConcurrency !== 'number' ||
      !(maxConcurrency >= 1) ||
      (!Number.isInteger(maxConcurrency) && maxConcurrency !== Number.POSITIVE_INFINITY)
    ) {
      throw new InvalidArgumentError('maxConcurrency must be a positive integer or Infinity');
    }
    checkTimeout(options.defaultTimeoutMs, 'defaultTimeoutMs');
    checkPositive(options.maxArgumentBytes, 'maxArgumentBytes');
    const maxResultBytes = options.maxResultBytes ?? DEFAULT_MAX_TOOL_RESULT_BYTES;
    if (
      typeof maxResultBytes !== 'number' ||
      !(maxResultBytes >= MIN_MAX_TOOL_RESULT_BYTES) ||
      (!Number.isInteger(maxResultBytes) && maxResultBytes !== Number.POSITIVE_INFINITY)
    ) {
      throw new InvalidArgumentError(
        `maxResultBytes must be an integer of at least ${MIN_MAX_TOOL_RESULT_BYTES} (room for the truncation notice) or Infinity`,
      );
    }

    this.#resolver = options.toolCallbackResolver ?? RESOLVES_NOTHING;
    this.#fallback = options.resolutionFallbackEnabled ?? false;
    this.#processor =
      options.exceptionProcessor ??
      createDefaultToolExecutionExceptionProcessor({
        alwaysThrow: options.throwExceptionOnError ?? false,
      });
    this.#limits = resolveToolCallLimits(options.limits);
    this.#throwOnUnknownTool = onUnknownTool === 'throw';
    this.#maxConcurrency = maxConcurrency;
    this.#defaultTimeoutMs = options.defaultTimeoutMs;
    this.#parseOptions =
      options.maxArgumentBytes === undefined ? {} : { maxBytes: options.maxArgumentBytes };
    this.#observer = options.observer;
    this.#maxResultBytes = maxResultBytes;
    checkPositive(
      options.maxResultMediaBytes === Number.POSITIVE_INFINITY ? 1 : options.maxResultMediaBytes,
      'maxResultMediaBytes',
    );
    this.#maxResultMediaBytes = options.maxResultMediaBytes ?? DEFAULT_MAX_TOOL_RESULT_MEDIA_BYTES;
  }

  resolveToolDefinitions(options: ToolCallingChatOptions): ToolDefinition[] {
    const callbacks = options.toolCallbacks ?? [];
    const definitions: ToolDefinition[] = new Array(callbacks.length);
    for (let index = 0; index < callbacks.length; index++) {
      definitions[index] = (callbacks[index] as ToolCallback).definition;
    }
    return definitions;
  }

  async executeToolCalls(
    prompt: Prompt<ToolCallingChatOptions>,
    chatResponse: ChatResponse,
    options: ExecuteToolCallsOptions = {},
  ): Promise<ToolExecutionResult> {
    const generation = firstGenerationWithToolCalls(chatResponse);
    if (generation === undefined) {
      throw new IllegalStateError('No tool call requested by the chat model');
    }
    const signal = options.signal;
    const denied = options.deniedToolCalls;
    if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });

    const assistant = generation.output;
    const calls = assistant.toolCalls;
    const callbacks = prompt.options?.toolCallbacks ?? [];
    for (let index = 0; index < calls.length; index++) checkCallShape(calls[index], index, calls);
    const finishReason = generation.metadata?.finishReason;
    const outputTruncated = finishReason === 'length';
    // The provider's safety system stopped the response (OpenAI `content_filter`, Anthropic
    // `refusal`): its calls are what the model wrote before it was stopped, never run.
    const filtered = finishReason === 'content_filter';
    const breaches = findToolCallLimitBreaches(calls, prompt.messages, this.#limits);
    const throwOnBreach = this.#limits.onLimitExceeded === 'THROW';

    const responses: ToolResponse[] = new Array(calls.length);
    // At most one plan per call; trimmed to the plans made below (pushing onto `[]` grew it).
    const plans: PlannedToolCall[] = new Array(calls.length);
    let planned = 0;
    // Small batches look back over the earlier calls instead of filling a set.
    const seenIds = calls.length > SMALL_BATCH ? new Set<string>() : undefined;
    let breachIndex = -1;
    for (let index = 0; index < calls.length; index++) {
      const call = calls[index] as ToolCall;
      let duplicate: boolean;
      if (seenIds !== undefined) {
        duplicate = seenIds.has(call.id);
        seenIds.add(call.id);
      } else {
        duplicate = usedEarlier(calls, index);
      }
      if (breachIndex !== -1) {
        responses[index] = errorResponse(
          call,
          'Tool call not executed: a tool call limit was reached earlier in this batch.',
        );
        continue;
      }
      const breach = breaches?.[index];
      if (breach !== undefined) {
        responses[index] = errorResponse(call, breach.message);
        if (throwOnBreach) breachIndex = index;
        continue;
      }
      if (duplicate) {
        responses[index] = errorResponse(
          call,
          `Tool call not executed: its id '${quote(call.id)}' is already used by an earlier call in this response.`,
        );
        continue;
      }
      const denial = denied?.get(call.id);
      if (denial !== undefined) {
        responses[index] = errorResponse(call, denial);
        continue;
      }
      if (filtered) {
        responses[index] = errorResponse(call, filteredMessage(call.name));
        continue;
      }
      const callback = this.#findCallback(callbacks, call.name);
      if (callback === undefined) {
        if (this.#throwOnUnknownTool) {
          throw new NoSuchToolError({
            toolName: call.name,
            availableToolNames: callbacks.map((attached) => attached.definition.name),
          });
        }
        responses[index] = errorResponse(call, unknownToolMessage(call.name, callbacks));
        continue;
      }
      const plan = this.#planCall(index, call, callback, outputTruncated, responses);
      if (plan !== undefined) plans[planned++] = plan;
    }

    const events = options.events;
    const iteration = options.iteration ?? 1;
    if (events !== undefined) {
      if (breaches !== undefined) emitLimitsExceeded(events, iteration, breaches);
      emitNotExecuted(events, iteration, calls, responses, denied);
    }

    let returnDirect = false;
    plans.length = planned;
    if (planned > 0) {
      const messages = withAppended(prompt.messages, assistant, undefined);
      const settings: ToolCallBatchSettings = {
        responses,
        context: frozenCopy(prompt.options?.toolContext, options.toolContext),
        messages,
        signal,
        maxConcurrency: this.#maxConcurrency,
        processor: this.#processor,
        observer: this.#observer,
        events,
        iteration,
        maxResultBytes: this.#maxResultBytes,
        maxResultMediaBytes: this.#maxResultMediaBytes,
      };
      const allSucceededDirectly =
        options.durable === undefined
          ? await runToolCallBatch(plans, settings)
          : await runDurableToolCallBatch(plans, settings, options.durable);
      // Spring AI's rule (every call of the batch is a returnDirect call), where a call that
      // was not executed or failed is not one: an error text must never become the answer.
      returnDirect = allSucceededDirectly && plans.length === calls.length;
    }

    const history = withAppended(prompt.messages, assistant, { role: 'tool', responses });
    if (breachIndex !== -1) {
      const breach = breaches?.[breachIndex] as ToolCallLimitBreach;
      throw new ToolCallLimitExceededError({
        toolName: breach.toolName,
        limit: breach.limit,
        partialResult: { conversationHistory: history, returnDirect },
        breachIndex,
      });
    }
    return { conversationHistory: history, returnDirect };
  }

  #findCallback(callbacks: readonly ToolCallback[], name: string): ToolCallback | undefined {
    if (typeof name !== 'string' || name === '') return undefined;
    for (const callback of callbacks) if (callback.definition.name === name) return callback;
    return this.#fallback ? (this.#resolver(name) ?? undefined) : undefined;
  }

  /** Issue paths hold property names the model wrote, so the message gets the result cap. */
  #invalidArgumentsMessage(
    name: string,
    issues: readonly { path: string; message: string }[],
  ): string {
    return capToolResultText(invalidArgumentsMessage(name, issues), this.#maxResultBytes);
  }

  /** Checks a call's arguments; returns the plan, or writes the call's error response. */
  #planCall(
    index: number,
    call: ToolCall,
    callback: ToolCallback,
    outputTruncated: boolean,
    responses: ToolResponse[],
  ): PlannedToolCall | undefined {
    if (call.metadata?.truncated === true) {
      responses[index] = errorResponse(call, truncatedMessage(call.name));
      return undefined;
    }
    if (call.metadata?.nonTextArguments === true) {
      responses[index] = errorResponse(
        call,
        this.#invalidArgumentsMessage(call.name, [NOT_TEXT_ISSUE]),
      );
      return undefined;
    }
    // Not text (an object, a number, null: an adapter that passed the provider's value on) is
    // rejected by the parser; guessing `{}` would run the tool on arguments the model never sent.
    const raw = call.arguments;
    const parsed = parseToolArguments(raw, this.#parseOptions);
    if (!parsed.ok) {
      responses[index] = errorResponse(
        call,
        outputTruncated && typeof raw === 'string'
          ? truncatedMessage(call.name)
          : this.#invalidArgumentsMessage(call.name, parsed.issues),
      );
      return undefined;
    }
    const issues = validateJsonSchema(callback.definition.inputSchema, parsed.value);
    if (issues.length > 0) {
      responses[index] = errorResponse(call, this.#invalidArgumentsMessage(call.name, issues));
      return undefined;
    }
    const metadata = callback.metadata;
    return {
      index,
      call,
      callback,
      input: NON_WHITESPACE.test(raw) ? raw : '{}',
      arguments: parsed.value,
      callOptions: NO_CALL_OPTIONS,
      timeoutMs: metadata?.timeoutMs ?? this.#defaultTimeoutMs,
      sequential: metadata?.sequential === true,
    };
  }
}

const EMPTY_CONTEXT: Readonly<Record<string, unknown>> = Object.freeze({});
const NO_CALL_OPTIONS = Object.freeze({});

/**
 * `messages` with one or two messages after them, in an array of the exact length: a `slice` and
 * a `push` reallocated the copy to grow it (0.3 KB per loop-overhead conversation).
 */
function withAppended(
  messages: readonly Message[],
  first: Message,
  second: Message | undefined,
): Message[] {
  const length = messages.length;
  const result: Message[] = new Array(length + (second === undefined ? 1 : 2));
  for (let index = 0; index < length; index++) result[index] = messages[index] as Message;
  result[length] = first;
  if (second !== undefined) result[length + 1] = second;
  return result;
}

/** Batches up to this many calls find repeated ids by looking back rather than with a set. */
const SMALL_BATCH = 8;

/** Whether a call before `index` has the id of the call at `index`. */
function usedEarlier(calls: readonly ToolCall[], index: number): boolean {
  const id = (calls[index] as ToolCall).id;
  for (let earlier = 0; earlier < index; earlier++) {
    if ((calls[earlier] as ToolCall).id === id) return true;
  }
  return false;
}

function frozenCopy(
  context: Readonly<Record<string, unknown>> | undefined,
  beside: Readonly<Record<string, unknown>> | undefined,
): Readonly<Record<string, unknown>> {
  if (beside != null) return Object.freeze(Object.assign({}, context, beside));
  return context == null ? EMPTY_CONTEXT : Object.freeze(Object.assign({}, context));
}

/** A timeout: milliseconds greater than 0, any length (see `LongTimeout`), or `Infinity` for none. */
function checkTimeout(value: number | undefined, name: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !(value > 0)) {
    throw new InvalidArgumentError(`${name} must be greater than 0 (Infinity: no timeout)`);
  }
}

function checkPositive(value: number | undefined, name: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new InvalidArgumentError(`${name} must be greater than 0`);
  }
}

function firstGenerationWithToolCalls(response: ChatResponse): Generation | undefined {
  for (const generation of response.results ?? []) {
    if ((generation?.output as AssistantMessage | undefined)?.toolCalls?.length) return generation;
  }
  return undefined;
}

/**
 * A call's result is written under its id and name, so a call without a non-empty string id or
 * a string name cannot be answered in a valid transcript (nor sent back to a provider): the batch
 * fails before anything runs. Such calls come only from a broken `ChatModel`; the built-in ones
 * give every call an id.
 */
function checkCallShape(
  call: ToolCall | undefined,
  index: number,
  calls: readonly ToolCall[],
): void {
  let problem: string | undefined;
  if (typeof call !== 'object' || call === null) problem = 'it is not an object';
  else if (typeof call.id !== 'string' || call.id === '') {
    problem = 'its id is not a non-empty string';
  } else if (typeof call.name !== 'string') problem = 'its name is not a string';
  if (problem === undefined) return;
  throw new IllegalStateError(
    `The chat model returned a malformed tool call (call ${index + 1} of ${calls.length}): ${problem}. No tool call of this response was executed.`,
  );
}

function errorResponse(call: ToolCall, text: string): ToolResponse {
  return { id: call.id, name: call.name, responseData: text, isError: true };
}

function quote(text: string): string {
  return text.length > MAX_QUOTED_NAME_LENGTH ? `${text.slice(0, MAX_QUOTED_NAME_LENGTH)}…` : text;
}

function unknownToolMessage(name: string, attached: readonly ToolCallback[]): string {
  const named = typeof name === 'string' && name !== '';
  // With a tool that finds tools (tool search), the name may well be a real tool not offered yet:
  // saying it does not exist would send the model the wrong way.
  const finder = named
    ? attached.find(
        ({ metadata }) =>
          metadata?.discoversTools === true &&
          (metadata.discoverableToolNames === undefined ||
            metadata.discoverableToolNames.has(name)),
      )
    : undefined;
  const problem = !named
    ? 'Tool call not executed: the tool name is empty.'
    : finder !== undefined
      ? `Tool call not executed: a tool named '${quote(name)}' is not offered yet. Search for it with ${finder.definition.name} first, then call one of the tools the search returns.`
      : `Tool call not executed: there is no tool named '${quote(name)}'.`;
  if (attached.length === 0) return `${problem} No tools are available.`;
  const names = attached
    .slice(0, MAX_LISTED_TOOL_NAMES)
    .map((callback) => callback.definition.name)
    .join(', ');
  const more =
    attached.length > MAX_LISTED_TOOL_NAMES
      ? ` and ${attached.length - MAX_LISTED_TOOL_NAMES} more`
      : '';
  return `${problem} Available tools: ${names}${more}.`;
}

function filteredMessage(name: string): string {
  return `Tool call not executed: the provider's content filter stopped the response that called tool '${quote(name)}' (a content filter or refusal ending), so none of its calls run.`;
}

function truncatedMessage(name: string): string {
  return `Tool call not executed: the arguments for tool '${quote(name)}' were truncated by the output limit. Call the tool again with complete arguments.`;
}

function invalidArgumentsMessage(
  name: string,
  issues: readonly { path: string; message: string }[],
): string {
  let listed = '';
  const count = Math.min(issues.length, MAX_LISTED_ISSUES);
  for (let index = 0; index < count; index++) {
    const issue = issues[index] as { path: string; message: string };
    listed += `${index === 0 ? '' : '; '}${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`;
  }
  if (issues.length > count) listed += `; and ${issues.length - count} more`;
  return `Tool call not executed: invalid arguments for tool '${quote(name)}': ${listed}. Fix the arguments and call the tool again.`;
}
