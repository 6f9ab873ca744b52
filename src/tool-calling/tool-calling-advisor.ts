import { randomUUID } from 'node:crypto';
import type {
  Advisor,
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
  isMemoryAdvisor,
  LOWEST_PRECEDENCE,
  TOOL_LOOP_TURN_ID,
} from '../advisors/index.js';
import type { ToolApprovalOptions } from '../approval/index.js';
import { checkSigningKey } from '../approval/pending-approval-signature.js';
import { AbortError, InvalidArgumentError, ToolloopError } from '../errors/index.js';
import type { Message } from '../messages/index.js';
import {
  addUsage,
  type ChatOptions,
  type ChatResponse,
  ChatResponseAggregator,
  FinishReason,
  type Generation,
  isUsageEmpty,
  promptSystemMessage,
  type Usage,
} from '../model/index.js';
import { createToolCallingManager } from './create-tool-calling-manager.js';
import type { ToolCallLimitExceededError } from './tool-call-limit-exceeded-error.js';
import type { ToolCallingManager, ToolExecutionResult } from './tool-calling-manager.js';
import {
  defaultToolExecutionEligibilityChecker,
  type ToolExecutionEligibilityChecker,
} from './tool-execution-eligibility.js';
import { buildToolExecutionGenerations } from './tool-execution-result.js';
import {
  pendingApprovalFor,
  pendingApprovalResponse,
  resumedBatch,
  resumedHistory,
  startTurnApproval,
  type TurnApproval,
} from './tool-loop-approval.js';
import type { ToolLoopContext } from './tool-loop-context.js';
import { UsageAccumulator } from './usage-accumulator.js';

/** A hook may answer at once or asynchronously. */
type MaybePromise<T> = T | Promise<T>;

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
   * pending states. Tools with `needsApproval` pause the turn without it. Default: no policy, no
   * signing.
   */
  approval?: ToolApprovalOptions;
}

/** The state of one run of the loop: one call, or one iteration of a stream. */
interface LoopState {
  readonly mode: 'call' | 'stream';
  readonly chain: CallAdvisorChain | StreamAdvisorChain;
  readonly signal: AbortSignal | undefined;
  /** The initialized request's advisor params; every round gets a fresh shallow copy. */
  readonly context: Record<string, unknown>;
  readonly usage: UsageAccumulator;
  /** What the next round sends. */
  instructions: Message[];
  /** Options as last seen after `doBeforeCall`: hook changes carry to later rounds. */
  options: ChatOptions;
  /** The whole turn, untrimmed: what the manager sees. */
  history: Message[];
  iteration: number;
  finalAnswer: boolean;
  /** The turn's id (kept across an approval pause). */
  turnId: string;
  readonly approval: TurnApproval;
}

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
 * - the caller's signal aborts: no model call or tool batch starts after that, and the abort error
 *   propagates.
 * Token usage of all rounds is summed onto the final response. The advisor keeps no state between
 * requests, so one instance serves any number of concurrent conversations.
 *
 * Subclasses extend the loop through one set of hooks shared by call and stream mode
 * (`doInitializeLoop`, `doBeforeCall`, `doAfterCall`, `doFinalizeLoop`,
 * `doGetNextInstructions`); each receives a {@link ToolLoopContext} telling the mode.
 *
 * Departures from the reference: the iteration cap (the reference loops until the model stops);
 * abort checks before every model call and tool batch; in stream mode the text of a chunk that
 * also carries tool calls still reaches the caller, and `doFinalizeLoop` runs on every ending; the
 * loop passes through untouched only for a prompt without an options object, since every
 * `ChatOptions` can carry tools.
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
  readonly #approval: ToolApprovalOptions;

  /**
   * @throws InvalidArgumentError for a `null` manager or checker, an order outside
   *   (`HIGHEST_PRECEDENCE`, `LOWEST_PRECEDENCE`), or a `maxIterations` that is not a positive
   *   integer.
   */
  constructor(options: ToolCallingAdvisorOptions = {}) {
    if ((options.toolCallingManager as unknown) === null) {
      throw new InvalidArgumentError('toolCallingManager must not be null');
    }
    if ((options.toolExecutionEligibilityChecker as unknown) === null) {
      throw new InvalidArgumentError('toolExecutionEligibilityChecker must not be null');
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
    const approval = options.approval ?? {};
    if (approval === null || typeof approval !== 'object') {
      throw new InvalidArgumentError('approval must be an object');
    }
    if (approval.policy !== undefined && typeof approval.policy !== 'function') {
      throw new InvalidArgumentError('approval.policy must be a function');
    }
    checkSigningKey(approval.signingKey);
    this.#approval = approval;
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
  async adviseCall(
    request: ChatClientRequest,
    chain: CallAdvisorChain,
  ): Promise<ChatClientResponse> {
    if (chain == null) throw new InvalidArgumentError('callAdvisorChain must not be null');
    if (request == null) throw new InvalidArgumentError('chatClientRequest must not be null');
    if (request.prompt?.options == null) return chain.nextCall(request);

    // Hooks and steps that answer synchronously are not awaited: each await is a microtask hop.
    const started = this.#startLoop(request, 'call', chain);
    const state = started instanceof Promise ? await started : started;
    let response: ChatClientResponse;
    if (state.approval.resume !== undefined) {
      const resumed = await this.#resumeBatch(state);
      if (resumed.ending !== undefined) {
        response = withGenerations(resumed.response, resumed.ending);
        response = withChatResponse(response, state.usage.apply(response.chatResponse));
        return this.doFinalizeLoop(response, this.#loopContext(state));
      }
    }
    for (;;) {
      const prepared = this.#prepareRound(state);
      const roundRequest = prepared instanceof Promise ? await prepared : prepared;
      response = await chain.copy(this).nextCall(roundRequest);
      const after = this.doAfterCall(response, this.#loopContext(state));
      response = isThenable(after) ? await after : after;
      state.usage.addRound(response.chatResponse);
      if (state.finalAnswer) {
        response = withChatResponse(response, finalAnswerResponse(response.chatResponse, true));
        break;
      }
      if (!this.#isToolCallResponse(response.chatResponse)) break;
      const pending = await this.#pendingApproval(state, response);
      if (pending !== undefined) {
        response = pending;
        break;
      }
      const ending = await this.#executeToolCalls(state, roundRequest, response);
      if (ending !== undefined) {
        response = withGenerations(response, ending);
        break;
      }
    }
    response = withChatResponse(response, state.usage.apply(response.chatResponse));
    return this.doFinalizeLoop(response, this.#loopContext(state));
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
    if (chain == null) throw new InvalidArgumentError('streamAdvisorChain must not be null');
    if (request == null) throw new InvalidArgumentError('chatClientRequest must not be null');
    if (request.prompt?.options == null) return chain.nextStream(request);
    return {
      [Symbol.asyncIterator]: () => new ToolLoopStream(this.#streamLoop(request, chain)),
    };
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
   * their aggregate for side effects (logging, storing), and its return value is discarded. (The
   * reference skips this hook on the stream's `returnDirect` and limit endings; here it runs on all
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
  protected finalAnswerOptions(options: ChatOptions): ChatOptions {
    return { ...options, toolChoice: 'none' };
  }

  /**
   * The stream loop's control flow. Each round is handed to the {@link ToolLoopStream} driving
   * this generator as a {@link StreamRound}: it pulls the round's chunks itself, through
   * `accept`, and resumes the generator when the round's stream has ended (or throws the
   * round's failure into it), so no chunk passes through this generator.
   */
  async *#streamLoop(
    request: ChatClientRequest,
    chain: StreamAdvisorChain,
  ): AsyncGenerator<ChatClientResponse | StreamRound, undefined, undefined> {
    const started = this.#startLoop(request, 'stream', chain);
    const state = started instanceof Promise ? await started : started;
    if (state.approval.resume !== undefined) {
      const resumed = await this.#resumeBatch(state);
      if (resumed.ending !== undefined) {
        const final = withGenerations(resumed.response, resumed.ending);
        yield await this.doFinalizeLoop(
          withChatResponse(final, state.usage.apply(final.chatResponse)),
          this.#loopContext(state),
        );
        return;
      }
    }
    for (;;) {
      const prepared = this.#prepareRound(state);
      const roundRequest = prepared instanceof Promise ? await prepared : prepared;
      const previousUsage = state.usage.total;
      const aggregator = new ChatResponseAggregator();
      let context = roundRequest.context;
      // The round's usage is the last non-empty one: a trailing zero-usage chunk must not hide it.
      let roundUsage: Usage | undefined;
      const source = chain.copy(this).nextStream(roundRequest)[Symbol.asyncIterator]();
      yield new StreamRound(source, (chunk) => {
        throwIfAborted(state.signal);
        context = chunk.context;
        if (chunk.chatResponse === null) return chunk;
        aggregator.add(chunk.chatResponse);
        if (!isUsageEmpty(chunk.chatResponse.metadata.usage)) {
          roundUsage = chunk.chatResponse.metadata.usage;
        }
        const outgoing = this.#outgoingChunk(chunk.chatResponse, state.finalAnswer, previousUsage);
        return outgoing === undefined ? undefined : withChatResponse(chunk, outgoing);
      });
      if (aggregator.size === 0) {
        await this.doFinalizeLoop({ chatResponse: null, context }, this.#loopContext(state));
        return;
      }
      const roundResponse = aggregator.result();
      if (roundUsage !== undefined) roundResponse.metadata.usage = roundUsage;
      let aggregated = await this.doAfterCall(
        { chatResponse: roundResponse, context },
        this.#loopContext(state),
      );
      state.usage.addRound(aggregated.chatResponse);

      if (state.finalAnswer || !this.#isToolCallResponse(aggregated.chatResponse)) {
        const total = state.usage.total;
        if (
          !isUsageEmpty(previousUsage) &&
          isUsageEmpty(aggregated.chatResponse?.metadata.usage) &&
          total !== undefined
        ) {
          yield {
            chatResponse: {
              results: [],
              metadata: { ...aggregated.chatResponse?.metadata, usage: total },
            },
            context: aggregated.context,
          };
        }
        if (state.finalAnswer) {
          aggregated = withChatResponse(
            aggregated,
            finalAnswerResponse(aggregated.chatResponse, true),
          );
        }
        await this.doFinalizeLoop(
          withChatResponse(aggregated, state.usage.apply(aggregated.chatResponse)),
          this.#loopContext(state),
        );
        return;
      }

      const pending = await this.#pendingApproval(state, aggregated);
      if (pending !== undefined) {
        yield await this.doFinalizeLoop(pending, this.#loopContext(state));
        return;
      }
      const ending = await this.#executeToolCalls(state, roundRequest, aggregated);
      if (ending !== undefined) {
        const final = withGenerations(aggregated, ending);
        yield await this.doFinalizeLoop(
          withChatResponse(final, state.usage.apply(final.chatResponse)),
          this.#loopContext(state),
        );
        return;
      }
    }
  }

  /**
   * What the caller sees of one streamed chunk: tool calls withheld (their text passed on alone),
   * tool calls dropped and the finish reason marked in the final tools-off round, and earlier
   * rounds' usage added to a chunk that carries usage. `undefined` withholds the chunk.
   */
  #outgoingChunk(
    chunk: ChatResponse,
    finalAnswer: boolean,
    previousUsage: Usage | undefined,
  ): ChatResponse | undefined {
    let outgoing: ChatResponse | undefined = chunk;
    if (finalAnswer) outgoing = finalAnswerResponse(chunk, false) ?? undefined;
    else if (this.#isToolCallResponse(chunk)) outgoing = textOnly(chunk);
    if (outgoing === undefined) return undefined;
    if (isUsageEmpty(previousUsage) || isUsageEmpty(outgoing.metadata.usage)) return outgoing;
    return {
      ...outgoing,
      metadata: { ...outgoing.metadata, usage: addUsage(previousUsage, outgoing.metadata.usage) },
    };
  }

  #startLoop(
    request: ChatClientRequest,
    mode: 'call' | 'stream',
    chain: CallAdvisorChain | StreamAdvisorChain,
  ): LoopState | Promise<LoopState> {
    const signal = request.signal;
    const start = startTurnApproval(request, this.#approval);
    request = start.request;
    const seed: LoopState = {
      mode,
      chain,
      signal,
      context: request.context,
      usage: new UsageAccumulator(),
      instructions: request.prompt.messages,
      options: request.prompt.options,
      history: request.prompt.messages,
      iteration: 0,
      finalAnswer: false,
      turnId: start.approval.resume?.state.turnId ?? randomUUID(),
      approval: start.approval,
    };
    const initialized = this.doInitializeLoop(request, this.#loopContext(seed));
    return isThenable(initialized)
      ? Promise.resolve(initialized).then((ready) => startedState(seed, ready))
      : startedState(seed, initialized);
  }

  /** Builds the next round's request, runs `doBeforeCall`, and checks the signal. */
  #prepareRound(state: LoopState): ChatClientRequest | Promise<ChatClientRequest> {
    state.iteration++;
    state.finalAnswer = state.iteration > this.maxIterations;
    const request: ChatClientRequest = {
      prompt: { messages: [...state.instructions], options: state.options },
      context: { ...state.context },
    };
    if (state.signal !== undefined) request.signal = state.signal;
    const prepared = this.doBeforeCall(request, this.#loopContext(state));
    return isThenable(prepared)
      ? Promise.resolve(prepared).then((ready) => this.#finishRound(state, ready))
      : this.#finishRound(state, prepared);
  }

  /** The rest of {@link #prepareRound} once `doBeforeCall` has answered. */
  #finishRound(state: LoopState, prepared: ChatClientRequest): ChatClientRequest {
    let request = prepared;
    state.options = request.prompt.options;
    if (state.finalAnswer) {
      request = {
        ...request,
        prompt: { ...request.prompt, options: this.finalAnswerOptions(request.prompt.options) },
      };
    }
    throwIfAborted(state.signal);
    return request;
  }

  /**
   * Executes the round's tool calls. Returns the generations that end the turn (limit breach,
   * `returnDirect`), or `undefined` after setting up the next round.
   */
  async #executeToolCalls(
    state: LoopState,
    roundRequest: ChatClientRequest,
    response: ChatClientResponse,
    deniedToolCalls?: ReadonlyMap<string, string>,
  ): Promise<Generation[] | undefined> {
    throwIfAborted(state.signal);
    let result: ToolExecutionResult;
    try {
      result = await this.toolCallingManager.executeToolCalls(
        { messages: state.history, options: state.options },
        response.chatResponse as ChatResponse,
        {
          ...(state.signal === undefined ? {} : { signal: state.signal }),
          ...(deniedToolCalls === undefined || deniedToolCalls.size === 0
            ? {}
            : { deniedToolCalls }),
        },
      );
    } catch (error) {
      if (!isToolCallLimitExceeded(error)) throw error;
      await this.#notifyMemoryOfLoopEnd(
        state,
        roundRequest,
        error.partialResult.conversationHistory,
      );
      return [error.buildGeneration()];
    }
    state.history = result.conversationHistory;
    if (result.returnDirect) {
      await this.#notifyMemoryOfLoopEnd(state, roundRequest, result.conversationHistory);
      return buildToolExecutionGenerations(result);
    }
    const next = this.doGetNextInstructions(roundRequest, response, result);
    state.instructions = isThenable(next) ? await next : next;
    return undefined;
  }

  /**
   * A turn that ends on tool results never sends them downstream, so memory advisors inside the
   * loop are told directly; otherwise they would store nothing of a successful turn.
   */
  async #notifyMemoryOfLoopEnd(
    state: LoopState,
    roundRequest: ChatClientRequest,
    history: readonly Message[],
  ): Promise<void> {
    const advisors: readonly Advisor[] =
      state.mode === 'call'
        ? (state.chain as CallAdvisorChain).callAdvisors
        : (state.chain as StreamAdvisorChain).streamAdvisors;
    const own = advisors.indexOf(this);
    for (let index = own + 1; index < advisors.length; index++) {
      const advisor = advisors[index] as Advisor;
      if (isMemoryAdvisor(advisor) && advisor.onToolLoopEnd) {
        await advisor.onToolLoopEnd(roundRequest, history);
      }
    }
  }

  /**
   * The paused turn's response when a call of the round's batch needs approval (nothing of the
   * batch has run), else `undefined`.
   */
  async #pendingApproval(
    state: LoopState,
    response: ChatClientResponse,
  ): Promise<ChatClientResponse | undefined> {
    const pending = await pendingApprovalFor(state.approval, {
      response: response.chatResponse as ChatResponse,
      options: state.options,
      history: state.history,
      turnId: state.turnId,
      iteration: state.iteration,
      usage: state.usage.total,
    });
    return pending === undefined
      ? undefined
      : pendingApprovalResponse(response, pending, state.usage.total);
  }

  /**
   * A resumed turn's first step: the round that made the waiting batch is prepared again
   * (`doBeforeCall` rebuilds its options, e.g. the tools tool search found), the decisions are
   * applied, and the batch runs without a model call. The next round sends the whole turn so
   * far, so a memory advisor inside the loop (in this process or another) can rebuild the turn.
   */
  async #resumeBatch(
    state: LoopState,
  ): Promise<{ response: ChatClientResponse; ending: Generation[] | undefined }> {
    const pendingIteration = (state.approval.resume as NonNullable<TurnApproval['resume']>).state
      .iteration;
    state.iteration = pendingIteration - 1;
    const prepared = this.#prepareRound(state);
    const roundRequest = prepared instanceof Promise ? await prepared : prepared;
    const { response, denied } = await resumedBatch(
      state.approval,
      state.options,
      state.history,
      roundRequest.context,
    );
    const ending = await this.#executeToolCalls(state, roundRequest, response, denied);
    if (ending === undefined) state.instructions = state.history;
    return { response, ending };
  }

  #isToolCallResponse(response: ChatResponse | null): boolean {
    return response !== null && this.toolExecutionEligibilityChecker(response);
  }

  #loopContext(state: LoopState): ToolLoopContext {
    // Plain literals, no spread: this runs several times per round.
    return state.mode === 'call'
      ? {
          iteration: state.iteration,
          maxIterations: this.maxIterations,
          finalAnswer: state.finalAnswer,
          conversationHistory: state.history,
          signal: state.signal,
          mode: 'call',
          chain: state.chain as CallAdvisorChain,
        }
      : {
          iteration: state.iteration,
          maxIterations: this.maxIterations,
          finalAnswer: state.finalAnswer,
          conversationHistory: state.history,
          signal: state.signal,
          mode: 'stream',
          chain: state.chain as StreamAdvisorChain,
        };
  }
}

/**
 * One round of the stream loop, handed out by the loop's generator: the round's chunk source, and
 * what each chunk becomes for the caller (`undefined` withholds it). `accept` may throw, which
 * fails the round as an exception in the body of a `for await` over the source would.
 */
class StreamRound {
  constructor(
    readonly source: AsyncIterator<ChatClientResponse>,
    readonly accept: (chunk: ChatClientResponse) => ChatClientResponse | undefined,
  ) {}
}

/**
 * The iterator of one run of the stream loop. It drives the loop's generator; while a round
 * streams it reads the round's source directly and answers with the accepted chunks, so each
 * chunk costs a `then` instead of a pass through the generator. It behaves as the generator's
 * own `for await` over the source would: the round's end resumes the generator; a failure of the
 * source is thrown into it; a failure of `accept` first closes the source; `return` closes the
 * source, then the generator.
 */
class ToolLoopStream implements AsyncIterator<ChatClientResponse, undefined, undefined> {
  readonly #loop: AsyncGenerator<ChatClientResponse | StreamRound, undefined, undefined>;
  #round: StreamRound | undefined;

  constructor(loop: AsyncGenerator<ChatClientResponse | StreamRound, undefined, undefined>) {
    this.#loop = loop;
  }

  next(): Promise<IteratorResult<ChatClientResponse, undefined>> {
    const round = this.#round;
    if (round === undefined) return this.#loop.next().then(this.#onLoopStep);
    return round.source.next().then(this.#onRoundChunk, this.#onRoundFailure);
  }

  async return(): Promise<IteratorResult<ChatClientResponse, undefined>> {
    const round = this.#round;
    this.#round = undefined;
    if (round?.source.return !== undefined) await round.source.return();
    return (await this.#loop.return(undefined)) as IteratorResult<ChatClientResponse, undefined>;
  }

  readonly #onLoopStep = (
    step: IteratorResult<ChatClientResponse | StreamRound, undefined>,
  ):
    | IteratorResult<ChatClientResponse, undefined>
    | Promise<IteratorResult<ChatClientResponse, undefined>> => {
    if (step.done || !(step.value instanceof StreamRound)) {
      return step as IteratorResult<ChatClientResponse, undefined>;
    }
    this.#round = step.value;
    return this.next();
  };

  readonly #onRoundChunk = (
    result: IteratorResult<ChatClientResponse>,
  ):
    | IteratorResult<ChatClientResponse, undefined>
    | Promise<IteratorResult<ChatClientResponse, undefined>> => {
    const round = this.#round as StreamRound;
    if (result.done) {
      this.#round = undefined;
      return this.#loop.next().then(this.#onLoopStep);
    }
    let outgoing: ChatClientResponse | undefined;
    try {
      outgoing = round.accept(result.value);
    } catch (error) {
      this.#round = undefined;
      return this.#closeAndThrow(round, error);
    }
    return outgoing === undefined ? this.next() : { done: false, value: outgoing };
  };

  readonly #onRoundFailure = (
    error: unknown,
  ): Promise<IteratorResult<ChatClientResponse, undefined>> => {
    this.#round = undefined;
    return this.#loop.throw(error).then(this.#onLoopStep);
  };

  async #closeAndThrow(
    round: StreamRound,
    error: unknown,
  ): Promise<IteratorResult<ChatClientResponse, undefined>> {
    // As a `for await` whose body throws: the source is closed, a failure to close is ignored.
    try {
      await round.source.return?.();
    } catch {}
    return this.#loop.throw(error).then(this.#onLoopStep);
  }
}

/** Whether a hook answered with something to await (a promise or another thenable). */
function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** The loop state once `doInitializeLoop` has answered with the request that seeds the loop. */
function startedState(seed: LoopState, initialized: ChatClientRequest): LoopState {
  const approval = seed.approval;
  approval.initializedLength = initialized.prompt.messages.length;
  const resume = approval.resume;
  const history =
    resume === undefined
      ? initialized.prompt.messages
      : resumedHistory(approval, initialized.prompt.messages);
  if (resume?.state.usage !== undefined) {
    seed.usage.addRound({ results: [], metadata: { usage: resume.state.usage } });
  }
  return {
    mode: seed.mode,
    chain: seed.chain,
    signal: seed.signal,
    // Every round of this turn carries the same turn id (memory inside the loop needs it).
    context: { ...initialized.context, [TOOL_LOOP_TURN_ID]: seed.turnId },
    usage: seed.usage,
    instructions: history,
    options: initialized.prompt.options,
    history,
    iteration: seed.iteration,
    finalAnswer: seed.finalAnswer,
    turnId: seed.turnId,
    approval,
  };
}

/** Fails with toolloop's `AbortError` (the signal's reason as its cause) once the caller aborted. */
function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
}

function isToolCallLimitExceeded(error: unknown): error is ToolCallLimitExceededError {
  return (
    ToolloopError.isInstance(error) &&
    error.code === 'TOOL_CALL_LIMIT_EXCEEDED' &&
    typeof (error as Partial<ToolCallLimitExceededError>).buildGeneration === 'function'
  );
}

function withChatResponse(
  response: ChatClientResponse,
  chatResponse: ChatResponse | null,
): ChatClientResponse {
  return chatResponse === response.chatResponse ? response : { ...response, chatResponse };
}

/** Replaces the generations, keeping the round's response metadata (id, model, usage). */
function withGenerations(response: ChatClientResponse, results: Generation[]): ChatClientResponse {
  const metadata = response.chatResponse?.metadata ?? {};
  return { ...response, chatResponse: { results, metadata } };
}

/**
 * The answer of the tools-off call after the iteration cap: tool calls dropped (never executed)
 * and finish reasons set to `'maxIterations'`. `markAll` false (stream chunks) marks only the
 * generations that carry a finish reason, so mid-stream deltas keep `null`.
 */
function finalAnswerResponse(response: ChatResponse | null, markAll: boolean): ChatResponse | null {
  if (response === null) return null;
  return {
    ...response,
    results: response.results.map((generation) => ({
      output: { ...generation.output, toolCalls: [] },
      metadata: {
        ...generation.metadata,
        finishReason:
          markAll || generation.metadata.finishReason !== null ? FinishReason.MAX_ITERATIONS : null,
      },
    })),
  };
}

/** The text of a withheld tool-call chunk, alone; `undefined` when it carries no text. */
function textOnly(chunk: ChatResponse): ChatResponse | undefined {
  if (!chunk.results.some((generation) => generation.output.text)) return undefined;
  const { usage: _usage, ...metadata } = chunk.metadata;
  return {
    results: chunk.results.map((generation) => ({
      output: { role: 'assistant', text: generation.output.text, toolCalls: [] },
      metadata: { finishReason: null },
    })),
    metadata,
  };
}
