import type {
  CallAdvisor,
  CallAdvisorChain,
  ChatClientRequest,
  ChatClientResponse,
  StreamAdvisor,
  StreamAdvisorChain,
  ToolAdvisor,
} from '../advisors/index.js';
import {
  DEFAULT_TOOL_CALLING_ADVISOR_ORDER,
  HIGHEST_PRECEDENCE,
  LOWEST_PRECEDENCE,
} from '../advisors/index.js';
import { checkApprovalOptions, type ToolApprovalOptions } from '../approval/index.js';
import { InvalidArgumentError } from '../errors/index.js';
import { optionNames, rejectUnknownOptions } from '../internal/option-names.js';
import type { Message } from '../messages/index.js';
import {
  type ChatResponse,
  hasToolCalls,
  promptSystemMessage,
  type ToolCallingChatOptions,
} from '../model/index.js';
import { callToolLoop } from './call-tool-loop.js';
import { createToolCallingManager } from './create-tool-calling-manager.js';
import { streamToolLoop } from './stream-tool-loop.js';
import type { ToolCallingManager, ToolExecutionResult } from './tool-calling-manager.js';
import type { ToolLoopContext } from './tool-loop-context.js';
import type { MaybePromise, ToolLoopHooks } from './tool-loop-hooks.js';

/**
 * Decides whether the tool loop executes the tool calls of a model response (the loop never asks
 * about a `null` response). A custom one can suppress execution (the response then goes back to
 * the caller with its tool calls) or force it.
 */
export type ToolExecutionEligibilityChecker = (response: ChatResponse) => boolean;

/** The default eligibility: true when any generation of the response requests a tool call. */
export const defaultToolExecutionEligibilityChecker: ToolExecutionEligibilityChecker = hasToolCalls;

/** Options of a {@link ToolCallingAdvisor}; every field has a default. */
export interface ToolCallingAdvisorOptions {
  /** Executes the requested tool calls. Default: `createToolCallingManager()` (default limits). */
  toolCallingManager?: ToolCallingManager;
  /** Decides whether a response's tool calls are executed. Default: any tool call. */
  toolExecutionEligibilityChecker?: ToolExecutionEligibilityChecker;
  /**
   * Position in the advisor chain, strictly between `HIGHEST_PRECEDENCE` and
   * `LOWEST_PRECEDENCE`. Default {@link ToolCallingAdvisor.DEFAULT_ORDER} (`HIGHEST_PRECEDENCE +
   * 300`): a memory advisor at its default order sits outside the loop.
   */
  order?: number;
  /**
   * Each round sends the whole turn so far (default `true`). Turn it off when a memory advisor
   * inside the loop supplies the history: each round then sends the system message and the latest
   * tool results only. Limits see the whole turn either way.
   */
  conversationHistoryEnabled?: boolean;
  /**
   * Tool rounds before the loop stops asking for tools. After this many rounds that all executed
   * tools, one last model call runs with tools turned off and its answer ends the turn with finish
   * reason `'maxIterations'`. Default {@link ToolCallingAdvisor.DEFAULT_MAX_ITERATIONS} (50).
   */
  maxIterations?: number;
  /**
   * Human approval: a policy for tools that do not state `needsApproval`, and a key signing the
   * pending states (see `ToolApprovalOptions`). Tools with `needsApproval` pause the turn without
   * it. Default: no policy, no signing.
   */
  approval?: ToolApprovalOptions;
}

/**
 * Every option name of {@link ToolCallingAdvisorOptions}, for a subclass's own list of names.
 * @internal
 */
export const TOOL_CALLING_ADVISOR_OPTION_NAMES = [
  'toolCallingManager',
  'toolExecutionEligibilityChecker',
  'order',
  'conversationHistoryEnabled',
  'maxIterations',
  'approval',
] as const;

/** The names above, checked against the interface, to refuse a misspelt one. */
const OPTION_NAMES = optionNames<ToolCallingAdvisorOptions>()(...TOOL_CALLING_ADVISOR_OPTION_NAMES);

/**
 * The tool loop: a recursive advisor that calls the rest of the chain (ultimately the model), lets
 * the {@link ToolCallingManager} execute the tool calls the model asked for, appends the results
 * and calls again, until the model answers without tool calls. Registered by the `ChatClient` on
 * every request; at most one tool advisor may sit in a chain.
 *
 * The loop ends when:
 * - the model answers without (eligible) tool calls: that answer is returned;
 * - every executed tool of a batch is `returnDirect`: the tool results are returned as the answer
 *   (one generation per result, finish reason `'returnDirect'`), without another model call;
 * - the manager throws a `ToolCallLimitExceededError`: the turn ends with the breach's single
 *   generation (finish reason `'toolCallLimitExceeded'`, `partialToolResponses` in its metadata);
 * - `maxIterations` tool rounds have run: one last model call with tools turned off answers
 *   (finish reason `'maxIterations'`); tool calls it still makes are dropped, never executed;
 * - a call of a batch needs approval (the tool's `needsApproval`, else the `approval.policy`):
 *   no call of that batch runs; the turn ends with finish reason `'approvalPending'` and the
 *   pending state in `chatResponse.metadata.pendingApproval`. `ChatClient.resume(state,
 *   decisions)` continues it: the batch runs with the decisions, then the loop goes on;
 * - the caller's signal aborts: no model call or tool batch starts after that, and the abort error
 *   propagates.
 * Token usage of all rounds is summed onto the final response. The advisor keeps no state between
 * requests, so one instance serves any number of concurrent conversations.
 *
 * One loop serves both modes (`runToolLoop`: prepare → model call → decide → execute the tools →
 * next round); only the model call differs, made by the call driver (`nextCall`) or the stream
 * driver (which forwards each round's chunks as they arrive). When the request carries
 * `listeners`, the loop and the manager report the turn's events to them (`TurnEvent`); without
 * listeners no event object is built.
 *
 * Subclasses extend the loop through one set of hooks shared by call and stream mode
 * (`doInitializeLoop`, `doBeforeCall`, `doAfterCall`, `doFinalizeLoop`,
 * `doGetNextInstructions`); each receives a {@link ToolLoopContext} telling the mode.
 *
 * Departures from Spring AI: the iteration cap (Spring AI loops until the model stops);
 * abort checks before every model call and tool batch; in stream mode the text of a chunk that
 * also carries tool calls still reaches the caller, and `doFinalizeLoop` runs on every ending; the
 * loop passes through untouched only for a prompt without an options object, since every
 * `ToolCallingChatOptions` can carry tools.
 */
export class ToolCallingAdvisor implements CallAdvisor, StreamAdvisor, ToolAdvisor {
  /** The default order: `HIGHEST_PRECEDENCE + 300`. */
  static readonly DEFAULT_ORDER: number = DEFAULT_TOOL_CALLING_ADVISOR_ORDER;
  /** The default cap on tool rounds per turn. */
  static readonly DEFAULT_MAX_ITERATIONS = 50;

  readonly isToolAdvisor = true as const;
  readonly name: string = 'Tool Calling Advisor';
  readonly order: number;
  /** The cap on tool rounds per turn. */
  readonly maxIterations: number;
  /** Decides whether a response's tool calls are executed. */
  readonly toolExecutionEligibilityChecker: ToolExecutionEligibilityChecker;
  /** Executes the tool calls. */
  protected readonly toolCallingManager: ToolCallingManager;
  /** The resolved options this advisor was built from; {@link copy} starts from them. */
  protected readonly options: Readonly<ToolCallingAdvisorOptions>;
  readonly #conversationHistoryEnabled: boolean;
  /** The hooks and settings the loop core runs with (see `runToolLoop`). */
  readonly #hooks: ToolLoopHooks;

  /**
   * @throws InvalidArgumentError for an order outside
   *   (`HIGHEST_PRECEDENCE`, `LOWEST_PRECEDENCE`), or a `maxIterations` that is not a positive
   *   integer.
   */
  constructor(options: ToolCallingAdvisorOptions = {}) {
    // A subclass's constructor checks its own (wider) options.
    if (new.target === ToolCallingAdvisor) {
      rejectUnknownOptions(options, OPTION_NAMES, 'ToolCallingAdvisor');
    }
    const order = options.order ?? ToolCallingAdvisor.DEFAULT_ORDER;
    if (!(order > HIGHEST_PRECEDENCE && order < LOWEST_PRECEDENCE)) {
      throw new InvalidArgumentError(
        'advisorOrder must be between HIGHEST_PRECEDENCE and LOWEST_PRECEDENCE',
      );
    }
    const maxIterations = options.maxIterations ?? ToolCallingAdvisor.DEFAULT_MAX_ITERATIONS;
    if (!Number.isInteger(maxIterations) || maxIterations < 1) {
      throw new InvalidArgumentError('maxIterations must be a positive integer');
    }
    const approval = checkApprovalOptions(options.approval) ?? {};
    this.order = order;
    this.maxIterations = maxIterations;
    this.toolCallingManager = options.toolCallingManager ?? createToolCallingManager();
    this.toolExecutionEligibilityChecker =
      options.toolExecutionEligibilityChecker ?? defaultToolExecutionEligibilityChecker;
    this.#conversationHistoryEnabled = options.conversationHistoryEnabled ?? true;
    this.options = {
      ...options,
      toolCallingManager: this.toolCallingManager,
      toolExecutionEligibilityChecker: this.toolExecutionEligibilityChecker,
      order,
      conversationHistoryEnabled: this.#conversationHistoryEnabled,
      maxIterations,
    };
    const checker = this.toolExecutionEligibilityChecker;
    // Arrow functions, so a subclass's overrides of the hooks are the ones called. A hook the
    // class does not override is left out: the loop skips it and the context snapshot it would
    // get (0.4 KB per loop-overhead conversation, measured with bench/allocation-profile.ts).
    const base = ToolCallingAdvisor.prototype;
    this.#hooks = {
      advisor: this,
      maxIterations,
      toolCallingManager: this.toolCallingManager,
      approval,
      isToolCallResponse: (response) => checker(response),
      nextInstructions: (request, response, result) =>
        this.doGetNextInstructions(request, response, result),
      finalAnswerOptions: (options) => this.finalAnswerOptions(options),
      initialize:
        this.doInitializeLoop === base.doInitializeLoop
          ? undefined
          : (request, loop) => this.doInitializeLoop(request, loop),
      beforeCall:
        this.doBeforeCall === base.doBeforeCall
          ? undefined
          : (request, loop) => this.doBeforeCall(request, loop),
      afterCall:
        this.doAfterCall === base.doAfterCall
          ? undefined
          : (response, loop) => this.doAfterCall(response, loop),
      finalize:
        this.doFinalizeLoop === base.doFinalizeLoop
          ? undefined
          : (response, loop) => this.doFinalizeLoop(response, loop),
    };
  }

  /** Whether each round sends the whole turn so far (see the option of the same name). */
  get conversationHistoryEnabled(): boolean {
    return this.#conversationHistoryEnabled;
  }

  /**
   * A copy of this advisor with some options changed (the manager is shared). The copy keeps the
   * subclass: it is made by {@link newCopy}.
   */
  copy(overrides: Partial<ToolCallingAdvisorOptions> = {}): this {
    return this.newCopy({ ...this.options, ...overrides });
  }

  /** A copy with internal conversation history turned off. */
  disableInternalConversationHistory(): this {
    return this.copy({ conversationHistoryEnabled: false });
  }

  /**
   * Builds the copy for {@link copy} from the merged options. The default calls this object's own
   * constructor with them, which keeps the subclass when its constructor takes its options object
   * first and passes it on to `super`; other subclasses override this.
   */
  protected newCopy(options: ToolCallingAdvisorOptions): this {
    const Constructor = this.constructor as new (options: ToolCallingAdvisorOptions) => this;
    return new Constructor(options);
  }

  /**
   * Runs the loop for a blocking call. A request whose prompt has no options object (possible only
   * from untyped callers) passes straight through without any hook.
   */
  adviseCall(request: ChatClientRequest, chain: CallAdvisorChain): Promise<ChatClientResponse> {
    // Not async: the loop's promise is returned as it is, without another promise around it.
    if (request.prompt?.options == null) return chain.nextCall(request);
    return callToolLoop(this.#hooks, request, chain);
  }

  /**
   * Runs the loop for a stream. Each round streams the rest of the chain: every chunk without tool
   * calls reaches the caller as it arrives (so text of a tool-call round, such as "Let me check…",
   * is not held back); a chunk with tool calls is withheld, except for its text, which is passed on
   * alone. When a round's stream ends, its chunks are aggregated, `doAfterCall` sees the aggregate,
   * and the tool decision is made as in call mode. A `returnDirect` or limit-breach ending yields
   * one more response carrying those generations and the turn's usage.
   *
   * Usage: chunks that carry usage of their own get the earlier rounds' usage added; when the last
   * round reports none, a trailing usage-only response (no generations) carries the turn's total.
   *
   * The returned iterable starts an independent run of the loop each time it is iterated.
   */
  adviseStream(
    request: ChatClientRequest,
    chain: StreamAdvisorChain,
  ): AsyncIterable<ChatClientResponse> {
    if (request.prompt?.options == null) return chain.nextStream(request);
    return streamToolLoop(this.#hooks, request, chain);
  }

  /**
   * Runs once before the first round; the returned request seeds the loop (its messages are the
   * first round's instructions and the start of the turn's history, its context is copied into
   * every round).
   */
  protected doInitializeLoop(
    request: ChatClientRequest,
    _loop: ToolLoopContext,
  ): MaybePromise<ChatClientRequest> {
    return request;
  }

  /**
   * Runs before every model call; may replace the prompt or its options. Changed options are the
   * ones the manager executes tools with, and they carry to later rounds.
   */
  protected doBeforeCall(
    request: ChatClientRequest,
    _loop: ToolLoopContext,
  ): MaybePromise<ChatClientRequest> {
    return request;
  }

  /**
   * Runs after every model call, before the tool decision; the returned response is the one
   * decided on. In stream mode it receives the round's aggregated response: the chunks have already
   * reached the caller, so a change here affects the decision and the final response only.
   */
  protected doAfterCall(
    response: ChatClientResponse,
    _loop: ToolLoopContext,
  ): MaybePromise<ChatClientResponse> {
    return response;
  }

  /**
   * Runs exactly once when the loop ends, on every ending (answer, `returnDirect`, limit breach,
   * iteration cap), with the final response carrying the turn's summed usage. Not run when the loop
   * fails or is aborted.
   *
   * Call mode: the returned response is what the caller gets.
   * Stream mode: on the `returnDirect` and limit-breach endings the response has not been sent yet,
   * and the returned one is what the caller gets as the last chunk. When the model answered, the
   * answer's chunks (and any trailing usage chunk) have already been streamed: the hook receives
   * their aggregate for side effects (logging, storing), and its return value is discarded. (Spring AI
   * skips this hook on the stream's `returnDirect` and limit endings; here it runs on all
   * of them, as in call mode.)
   */
  protected doFinalizeLoop(
    response: ChatClientResponse,
    _loop: ToolLoopContext,
  ): MaybePromise<ChatClientResponse> {
    return response;
  }

  /**
   * The instructions of the round after a tool batch. With internal history (the default) the
   * whole turn so far; without it, the round's system message (an empty one when there is none)
   * followed by the batch's tool response message.
   */
  protected doGetNextInstructions(
    request: ChatClientRequest,
    _response: ChatClientResponse,
    result: ToolExecutionResult,
  ): MaybePromise<Message[]> {
    const history = result.conversationHistory;
    if (this.#conversationHistoryEnabled) return history;
    const last = history[history.length - 1];
    if (last === undefined) return [];
    return [promptSystemMessage(request.prompt), last];
  }

  /**
   * The options of the one tools-off call after `maxIterations` tool rounds: the round's options
   * with `toolChoice: 'none'`. The tool definitions stay, because the history holds tool calls
   * and results and some providers (Anthropic) refuse such a history without the tools it names;
   * any tool call in the answer is dropped, never executed. Override to change what is sent.
   */
  protected finalAnswerOptions(options: ToolCallingChatOptions): ToolCallingChatOptions {
    return { ...options, toolChoice: 'none' };
  }
}
