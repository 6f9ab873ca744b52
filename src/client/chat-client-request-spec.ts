import {
  type Advisor,
  type ChatClientRequest,
  type ChatClientResponse,
  DefaultCallAdvisorChain,
  DefaultStreamAdvisorChain,
  type DurableSteps,
} from '../advisors/index.js';
import { InvalidArgumentError } from '../errors/index.js';
import type { Message } from '../messages/index.js';
import type { ChatModel, ChatOptions, ToolCallingChatOptions } from '../model/index.js';
import type { StepFinishEvent, TurnEventListener } from '../observability/turn-event.js';
import type { ToolCallingAdvisor } from '../tool-calling/tool-calling-advisor.js';
import type { ToolContextMap } from '../tools/tool-callback.js';
import { collectToolSources, type ToolSource } from '../tools/tool-sources.js';
import { abortOnReturn } from './abort-on-return.js';
import { AdvisorParams } from './advisor-params.js';
import { type AdvisorParamsCustomizer, AdvisorSpec } from './advisor-spec.js';
import { buildAdvisorChain } from './build-advisor-chain.js';
import { buildChatClientRequest } from './build-chat-client-request.js';
import { CallResponseSpec } from './call-response-spec.js';
import {
  type ChatClientRequestState,
  concatTools,
  type UserInput,
} from './chat-client-request-state.js';
import { deferredAsyncIterable } from './deferred-async-iterable.js';
import { mergeChatOptions } from './merge-chat-options.js';
import { StreamResponseSpec } from './stream-response-spec.js';
import { checkToolContext } from './tool-context-input.js';
import { checkListener, stepFinishListener } from './turn-event-listeners.js';

/** What `.advisors(...)` accepts: advisors, functions setting advisor params, and arrays of both. */
export type AdvisorEntry =
  | Advisor
  | AdvisorParamsCustomizer
  | readonly (Advisor | AdvisorParamsCustomizer)[];

/** Per-run options of `.call()` and `.stream()`. */
export interface RunOptions {
  /** Aborts the model requests and every running tool; it travels as `ChatClientRequest.signal`. */
  signal?: AbortSignal;
  /**
   * Runs the turn's model calls, tool calls, approval waits and memory reads and writes as steps
   * of a durable engine; set by `toolloop/durable`'s worker, which runs turns as workflows.
   */
  durable?: DurableSteps;
}

/** What a request spec needs from its client (not exported from the package). */
export interface ChatClientRuntime {
  readonly chatModel: ChatModel;
  readonly toolCallingAdvisor: ToolCallingAdvisor;
  /** The call chain of requests without advisors of their own, once one has run (`callChain`). */
  plainCallChain?: DefaultCallAdvisorChain;
  /** The same for streams (`streamChain`). */
  plainStreamChain?: DefaultStreamAdvisorChain;
}

/** @internal Applies `.advisors(...)` entries to a state. */
export function applyAdvisorEntries(
  state: ChatClientRequestState,
  entries: readonly AdvisorEntry[],
): ChatClientRequestState {
  const advisors = [...state.advisors];
  const spec = new AdvisorSpec();
  spec.params(state.advisorParams);
  for (const entry of entries.flat()) {
    if (entry === null || entry === undefined) {
      throw new InvalidArgumentError('advisors cannot contain null elements');
    }
    if (typeof entry === 'function') entry(spec);
    else advisors.push(entry);
  }
  return { ...state, advisors, advisorParams: { ...spec.values } };
}

/**
 * A request being built. Specs are immutable: every method returns a new spec and leaves this
 * one as it was, so a spec can be shared, extended in different directions, and run any number
 * of times. Nothing is sent until a response method of `.call()` or `.stream()` is used (or the
 * run spec is awaited); tool providers are listed then, on every run. `Ctx` is the client's
 * tool-context type (see {@link ChatClient.create}).
 */
export class ChatClientRequestSpec<
  Ctx extends object = ToolContextMap,
  Options extends ChatOptions = ChatOptions,
> {
  private readonly runtime: ChatClientRuntime;
  private readonly state: ChatClientRequestState;

  /** Made by `ChatClient.prompt()`; not meant to be constructed directly. */
  constructor(runtime: ChatClientRuntime, state: ChatClientRequestState) {
    this.runtime = runtime;
    this.state = state;
  }

  private with(changes: Partial<ChatClientRequestState>): ChatClientRequestSpec<Ctx, Options> {
    return new ChatClientRequestSpec<Ctx, Options>(this.runtime, { ...this.state, ...changes });
  }

  /** Sets the system text (replaces the client's default). */
  system(text: string): ChatClientRequestSpec<Ctx, Options> {
    if (typeof text !== 'string') throw new InvalidArgumentError('system text must be a string');
    return this.with({ system: text });
  }

  /** Sets the user turn: text, or text with media and metadata. */
  user(input: string | UserInput): ChatClientRequestSpec<Ctx, Options> {
    if (typeof input === 'string') return this.with({ user: { text: input } });
    if (input === null || typeof input !== 'object' || typeof input.text !== 'string') {
      throw new InvalidArgumentError('user input must be a string or an object with text');
    }
    return this.with({ user: { ...input } });
  }

  /** Adds messages (or arrays of messages) between the system text and the user turn. */
  messages(...messages: (Message | readonly Message[])[]): ChatClientRequestSpec<Ctx, Options> {
    const combined = this.state.messages.slice();
    for (const entry of messages) {
      if (Array.isArray(entry)) for (const message of entry) combined.push(message);
      else combined.push(entry as Message);
    }
    for (let index = this.state.messages.length; index < combined.length; index++) {
      if (combined[index] === null || combined[index] === undefined) {
        throw new InvalidArgumentError('messages cannot contain null elements');
      }
    }
    return this.with({ messages: combined });
  }

  /**
   * Adds tools to the client's default tools: `ToolCallback`s, objects with `@tool` methods
   * (converted now, so one without tools throws here), `ToolCallbackProvider`s (listed on every
   * run) and arrays of any of these, mixed.
   */
  tools(...sources: ToolSource[]): ChatClientRequestSpec<Ctx, Options> {
    return this.with({ tools: concatTools(this.state.tools, collectToolSources(sources)) });
  }

  /**
   * Merges entries into the tool context; these values win over the client's defaults. With a
   * typed client (`ChatClient.create<Ctx>()`) the entries are checked against `Ctx`.
   */
  toolContext(context: Partial<Ctx>): ChatClientRequestSpec<Ctx, Options> {
    return this.with({ toolContext: { ...this.state.toolContext, ...checkToolContext(context) } });
  }

  /**
   * Merges chat options over the client's default options (see `mergeChatOptions`). Typed by the
   * model's own options (`OpenAiChatOptions`, …): a key the model does not take is a type error.
   * `toolCallbacks` and `toolContext` stay with the loop; the model never receives the context.
   * A value of the model's option type itself (`const o: OpenAiChatOptions = …`) is taken too.
   */
  options(options: ToolCallingChatOptions<Options> | Options): ChatClientRequestSpec<Ctx, Options> {
    if (options === null || typeof options !== 'object') {
      throw new InvalidArgumentError('options must be an object');
    }
    return this.with({ options: mergeChatOptions(this.state.options, options) });
  }

  /** Adds advisors and sets advisor params: `.advisors(memory, a => a.param(key, value))`. */
  advisors(...entries: AdvisorEntry[]): ChatClientRequestSpec<Ctx, Options> {
    return new ChatClientRequestSpec<Ctx, Options>(
      this.runtime,
      applyAdvisorEntries(this.state, entries),
    );
  }

  /**
   * Adds a listener of this request's turn events (after the client's listeners). A listener that
   * throws never changes the turn (its error is reported once on `console.error`).
   */
  listener(listener: TurnEventListener): ChatClientRequestSpec<Ctx, Options> {
    return this.with({ listeners: [...this.state.listeners, checkListener(listener)] });
  }

  /** Calls `onStepFinish` when a step of this request's turn (a model call and its tool round) ends. */
  onStepFinish(
    onStepFinish: (event: StepFinishEvent) => void,
  ): ChatClientRequestSpec<Ctx, Options> {
    return this.with({
      listeners: [...this.state.listeners, stepFinishListener(onStepFinish)],
    });
  }

  /** Prepares a blocking run; it starts when a response method is first used. */
  call(options: RunOptions = {}): CallResponseSpec {
    const { runtime, state } = this;
    const signal = options.signal;
    const durable = options.durable;
    // Not async: the chain's promise is returned as it is, and a request without tool providers is
    // built and sent in the same tick.
    return new CallResponseSpec((extraAdvisors) => {
      try {
        const request = buildChatClientRequest(runtime.chatModel, state, signal, durable);
        return request instanceof Promise
          ? request.then((ready) => callChain(runtime, state, extraAdvisors, ready).nextCall(ready))
          : callChain(runtime, state, extraAdvisors, request).nextCall(request);
      } catch (error) {
        return Promise.reject(error);
      }
    });
  }

  /** Prepares a streaming run; each iteration of a response method runs the request. */
  stream(options: RunOptions = {}): StreamResponseSpec {
    const { runtime, state } = this;
    return new StreamResponseSpec((run) => {
      const runChain = (signal: AbortSignal | undefined) =>
        deferredAsyncIterable(() => {
          const runState =
            run?.listener === undefined
              ? state
              : { ...state, listeners: [...state.listeners, run.listener] };
          const request = buildChatClientRequest(
            runtime.chatModel,
            runState,
            signal,
            options.durable,
          );
          return request instanceof Promise
            ? request.then((ready) => streamChain(runtime, state, ready))
            : streamChain(runtime, state, request);
        });
      // A run with a signal of its own (`.events()`) is aborted through it when its reader stops:
      // no second controller for it (each AbortSignal costs ~10 µs to make on Node 20).
      if (run?.signal !== undefined) return runChain(combineSignals(options.signal, run.signal));
      // Stopping an iteration early aborts its run: the model request and running tools stop
      // however the stream is consumed or piped.
      return abortOnReturn(options.signal, runChain);
    });
  }
}

/**
 * The call chain of one request. A request with no advisors besides the tool loop gets the
 * client's own chain, built once: a chain walks by position and keeps no state, so it serves
 * every such request (building it per request allocated 0.6 KB per loop-overhead conversation,
 * measured with bench/allocation-profile.ts).
 */
function callChain(
  runtime: ChatClientRuntime,
  state: ChatClientRequestState,
  extraAdvisors: readonly Advisor[],
  request: ChatClientRequest,
): DefaultCallAdvisorChain {
  const plain =
    state.advisors.length === 0 &&
    extraAdvisors.length === 0 &&
    request.context[AdvisorParams.TOOL_CALLING_ADVISOR_AUTO_REGISTER] !== false;
  if (plain && runtime.plainCallChain !== undefined) return runtime.plainCallChain;
  const advisors = buildAdvisorChain(
    runtime.chatModel,
    plain ? [] : [...state.advisors, ...extraAdvisors],
    request.context,
    runtime.toolCallingAdvisor,
    request.durable !== undefined,
  );
  const chain = DefaultCallAdvisorChain.of(advisors);
  // Only when the tool advisor is the client's own (not a per-request copy).
  if (plain && advisors[0] === runtime.toolCallingAdvisor) runtime.plainCallChain = chain;
  return chain;
}

/**
 * The stream of one request through its chain; a request with no advisors besides the tool loop
 * uses the client's own stream chain, built once (as {@link callChain}).
 */
function streamChain(
  runtime: ChatClientRuntime,
  state: ChatClientRequestState,
  request: ChatClientRequest,
): AsyncIterable<ChatClientResponse> {
  const plain =
    state.advisors.length === 0 &&
    request.context[AdvisorParams.TOOL_CALLING_ADVISOR_AUTO_REGISTER] !== false;
  if (plain && runtime.plainStreamChain !== undefined) {
    return runtime.plainStreamChain.nextStream(request);
  }
  const advisors = buildAdvisorChain(
    runtime.chatModel,
    state.advisors,
    request.context,
    runtime.toolCallingAdvisor,
    request.durable !== undefined,
  );
  const chain = DefaultStreamAdvisorChain.of(advisors);
  if (plain && advisors[0] === runtime.toolCallingAdvisor) runtime.plainStreamChain = chain;
  return chain.nextStream(request);
}

/** The caller's signal and a run's own (`.events()` aborts when its reader stops), as one. */
function combineSignals(
  first: AbortSignal | undefined,
  second: AbortSignal | undefined,
): AbortSignal | undefined {
  if (first === undefined) return second;
  if (second === undefined) return first;
  return AbortSignal.any([first, second]);
}
