import { type Advisor, isToolAdvisor } from '../advisors/index.js';
import {
  checkApprovalOptions,
  isPendingToolApprovalShape,
  type PendingToolApproval,
  TOOL_APPROVAL_RESUME,
  type ToolApprovalDecision,
  type ToolApprovalOptions,
} from '../approval/index.js';
import { InvalidArgumentError, ToolApprovalError } from '../errors/index.js';
import { optionNames, rejectUnknownOptions } from '../internal/option-names.js';
import type { ChatModel, ChatOptions, ToolCallingChatOptions } from '../model/index.js';
import type { StepFinishEvent, TurnEventListener } from '../observability/turn-event.js';
import { ToolCallingAdvisor } from '../tool-calling/tool-calling-advisor.js';
import type { ToolContextMap } from '../tools/tool-callback.js';
import { collectToolSources, type ToolSource } from '../tools/tool-sources.js';
import {
  type AdvisorEntry,
  applyAdvisorEntries,
  ChatClientRequestSpec,
  type ChatClientRuntime,
} from './chat-client-request-spec.js';
import type { ChatClientRequestState } from './chat-client-request-state.js';
import { mergeChatOptions } from './merge-chat-options.js';
import { checkToolContext } from './tool-context-input.js';
import { checkListener, stepFinishListener } from './turn-event-listeners.js';

/**
 * The defaults of a {@link ChatClient}, applied to every request built from it. `Ctx` is the
 * client's tool-context type.
 */
export interface ChatClientOptions<
  Ctx extends object = ToolContextMap,
  Options extends ChatOptions = ChatOptions,
> {
  /** Default system text; `.system()` replaces it. */
  system?: string;
  /** Default tools; per-request `.tools()` add to them. */
  tools?: readonly ToolSource[];
  /** Default tool context; per-request `.toolContext()` entries win. */
  toolContext?: Partial<Ctx>;
  /** Default advisors and advisor params (e.g. `AdvisorParams.toolCallingAdvisorAutoRegister(false)`). */
  advisors?: readonly AdvisorEntry[];
  /**
   * Default chat options, typed by the model's own options; per-request `.options()` are merged
   * over them.
   */
  options?: ToolCallingChatOptions<Options> | Options;
  /**
   * The tool advisor registered on requests that have none: a copy of this one (or of a
   * subclass) is added, with internal history set for the chain. Default `new ToolCallingAdvisor()`.
   */
  toolCallingAdvisor?: ToolCallingAdvisor;
  /**
   * Human approval of tool calls: a policy for tools that do not state `needsApproval`
   * themselves, and a key that signs pending states. Set on the auto-registered tool advisor; a
   * tool advisor you register yourself (such as `ToolSearchToolCallingAdvisor`) takes its own
   * `approval` option. Tools with `needsApproval` pause the turn without any of this.
   */
  approval?: ToolApprovalOptions;
  /**
   * Receive the events of every turn of this client (model calls, tool calls and results, steps,
   * the turn's end); see `TurnEvent`. A listener that throws never changes the turn.
   */
  listeners?: readonly TurnEventListener[];
  /** Called when a step (a model call and the tool round after it) finishes, on every turn. */
  onStepFinish?: (event: StepFinishEvent) => void;
}

/** Every option name of {@link ChatClientOptions}, to refuse a misspelt one. */
const OPTION_NAMES = optionNames<ChatClientOptions>()(
  'system',
  'tools',
  'toolContext',
  'advisors',
  'options',
  'toolCallingAdvisor',
  'approval',
  'listeners',
  'onStepFinish',
);

/**
 * The entry point: a chat model plus defaults, from which requests are built with `prompt()`.
 * Clients are immutable and hold no per-conversation state, so one client serves any number of
 * concurrent conversations.
 *
 * ```ts
 * const client = ChatClient.create(model, { tools: [currentWeather] });
 * const answer = await client.prompt("What's the weather in Boston?").call().content();
 * ```
 */
export class ChatClient<
  Ctx extends object = ToolContextMap,
  Options extends ChatOptions = ChatOptions,
> {
  /** The chat model every request is sent to. */
  readonly chatModel: ChatModel<Options>;
  /** The defaults this client was created with. */
  readonly defaults: Readonly<ChatClientOptions<Ctx, Options>>;
  private readonly runtime: ChatClientRuntime;
  private readonly defaultState: ChatClientRequestState;
  #baseSpec: ChatClientRequestSpec<Ctx, Options> | undefined;

  private constructor(chatModel: ChatModel<Options>, defaults: ChatClientOptions<Ctx, Options>) {
    if (
      chatModel === null ||
      typeof chatModel !== 'object' ||
      typeof chatModel.call !== 'function'
    ) {
      throw new InvalidArgumentError('chatModel must be a ChatModel');
    }
    rejectUnknownOptions(defaults, OPTION_NAMES, 'ChatClient');
    const template = defaults.toolCallingAdvisor;
    if (template !== undefined && (template === null || typeof template.copy !== 'function')) {
      throw new InvalidArgumentError('toolCallingAdvisor must be a ToolCallingAdvisor');
    }
    this.chatModel = chatModel;
    this.defaults = Object.freeze({ ...defaults });
    const approval = checkApprovalOptions(defaults.approval);
    const toolCallingAdvisor = template ?? new ToolCallingAdvisor();
    this.runtime = {
      chatModel,
      toolCallingAdvisor:
        approval === undefined ? toolCallingAdvisor : toolCallingAdvisor.copy({ approval }),
    };
    const base: ChatClientRequestState = {
      system: defaults.system,
      user: undefined,
      messages: [],
      tools: collectToolSources(defaults.tools ?? []),
      toolContext: defaults.toolContext === undefined ? {} : checkToolContext(defaults.toolContext),
      options: defaults.options === undefined ? undefined : mergeChatOptions(defaults.options),
      advisors: [],
      advisorParams: {},
      listeners: clientListeners(defaults),
    };
    this.defaultState = applyAdvisorEntries(base, defaults.advisors ?? []);
    checkOwnToolLoop(this.defaultState.advisors, defaults);
  }

  /**
   * Creates a client for `chatModel` with the given defaults. `Ctx` types the tool context: with
   * `ChatClient.create<{ tenantId: string }>(model)`, `.toolContext()` and the `toolContext`
   * default are checked against it (each may give part of it); tools declare the same type as
   * `ToolContext<{ tenantId: string }>`. Default `Record<string, unknown>`. `Options` is the
   * model's option type, inferred from the model (`OpenAiChatOptions` for an `OpenAiChatModel`):
   * `.options()` and the `options` default are checked against it. Give both to type the context
   * of a client over a provider model: `ChatClient.create<Ctx, OpenAiChatOptions>(model)`.
   */
  static create<Ctx extends object = ToolContextMap, Options extends ChatOptions = ChatOptions>(
    chatModel: ChatModel<Options>,
    defaults: ChatClientOptions<NoInfer<Ctx>, NoInfer<Options>> = {},
  ): ChatClient<Ctx, Options> {
    return new ChatClient<Ctx, Options>(chatModel, defaults);
  }

  /**
   * A new client for the same model whose defaults are these ones with the given fields replaced
   * (to add a default tool: `client.mutate({ tools: [...(client.defaults.tools ?? []), extra] })`).
   */
  mutate(changes: ChatClientOptions<Ctx, Options>): ChatClient<Ctx, Options> {
    return new ChatClient<Ctx, Options>(this.chatModel, { ...this.defaults, ...changes });
  }

  /**
   * Continues a turn that paused for approval, with one decision per waiting call (see
   * `approveToolCall`, `denyToolCall`). Returns a request spec like `prompt()` does: add the
   * tools, tool context and advisors the turn needs (nothing of them is in the state), then run it
   * with `.call()` or `.stream()`. The messages come from the state; the client's default system
   * text is not added again. Works in any process: `state` may come from a database or a browser.
   *
   * The state and decisions are checked when the request runs, before any tool or model call:
   * a problem rejects it with a `ToolApprovalError`. The state is bound to the conversation it
   * paused in (set the same `CONVERSATION_ID` param), to the principal `approval.principal` names
   * (give the same tool context), to its expiry, and runs once: a second resume of it is refused
   * (`'replayed-state'`, checked in `approval.tokenStore`). Denied calls never run (the model receives an
   * error result with the reason); approved calls run with their arguments as shown, or with the
   * edited ones; the batch's calls that need no approval run with them.
   */
  resume(
    state: PendingToolApproval,
    decisions: readonly ToolApprovalDecision[],
  ): ChatClientRequestSpec<Ctx, Options> {
    if (!isPendingToolApprovalShape(state)) {
      throw new ToolApprovalError({
        problem: 'malformed-state',
        message: 'resume() needs the pending state a paused turn returned (pendingApprovalOf).',
      });
    }
    if (!Array.isArray(state.messages)) {
      throw new ToolApprovalError({
        problem: 'malformed-state',
        message: 'The pending approval state is malformed: messages.',
      });
    }
    return new ChatClientRequestSpec<Ctx, Options>(this.runtime, {
      ...this.defaultState,
      system: undefined,
      user: undefined,
      messages: state.messages,
      advisorParams: {
        ...this.defaultState.advisorParams,
        [TOOL_APPROVAL_RESUME]: { state, decisions },
      },
    });
  }

  /** Starts a request, optionally with the user text. */
  prompt(userText?: string): ChatClientRequestSpec<Ctx, Options> {
    // Specs are immutable, so one base spec serves every request; it also keeps the specs' hidden
    // class alive between turns (see keepInstanceShape for why that matters).
    this.#baseSpec ??= new ChatClientRequestSpec<Ctx, Options>(this.runtime, this.defaultState);
    return userText === undefined ? this.#baseSpec : this.#baseSpec.user(userText);
  }
}

function clientListeners<Ctx extends object>(
  defaults: ChatClientOptions<Ctx>,
): TurnEventListener[] {
  const listeners: TurnEventListener[] = [];
  if (defaults.listeners !== undefined) {
    if (!Array.isArray(defaults.listeners)) {
      throw new InvalidArgumentError('listeners must be an array of functions');
    }
    for (const listener of defaults.listeners) listeners.push(checkListener(listener));
  }
  if (defaults.onStepFinish !== undefined) {
    listeners.push(stepFinishListener(defaults.onStepFinish));
  }
  return listeners;
}

/**
 * A tool loop among the client's advisors replaces the one the client would register, so the
 * `approval` and `toolCallingAdvisor` options, which configure that one, would be dropped without
 * a word: a destructive tool would then run unapproved. Both combinations are refused.
 */
function checkOwnToolLoop(
  advisors: readonly Advisor[],
  defaults: Pick<ChatClientOptions, 'approval' | 'toolCallingAdvisor'>,
): void {
  const loop = advisors.find(isToolAdvisor);
  if (loop === undefined) return;
  const name = loop.constructor?.name || loop.name;
  if (defaults.approval !== undefined) {
    throw new InvalidArgumentError(
      `The advisors include a tool loop (${name}), which the client's approval option does not reach: pass it as toolCallingAdvisor: new ${name}(…) instead of among the advisors (the client's approval then configures it), or give \`approval\` to the advisor's own options.`,
    );
  }
  if (defaults.toolCallingAdvisor !== undefined) {
    throw new InvalidArgumentError(
      `The advisors include a tool loop (${name}), so the toolCallingAdvisor option would never be used: give the tool loop in one place only.`,
    );
  }
}
