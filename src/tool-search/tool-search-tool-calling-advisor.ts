import { randomUUID } from 'node:crypto';
import {
  type Advisor,
  type CallAdvisorChain,
  type ChatClientRequest,
  type ChatClientResponse,
  isMemoryAdvisor,
  type StreamAdvisorChain,
  TOOL_LOOP_TURN_ID,
} from '../advisors/index.js';
import { InvalidArgumentError } from '../errors/index.js';
import { optionNames, rejectUnknownOptions } from '../internal/option-names.js';
import type { Message } from '../messages/index.js';
import { augmentSystemMessage } from '../model/index.js';
import {
  TOOL_CALLING_ADVISOR_OPTION_NAMES,
  ToolCallingAdvisor,
  type ToolCallingAdvisorOptions,
} from '../tool-calling/tool-calling-advisor.js';
import type { ToolLoopContext } from '../tool-calling/tool-loop-context.js';
import type { ToolCallback } from '../tools/tool-callback.js';
import { extractToolNameReferences } from './extract-tool-name-references.js';
import { LexicalToolIndex } from './lexical-tool-index.js';
import {
  DEFAULT_SESSION_EVICTION,
  type SessionEviction,
  type SessionEvictionOptions,
  sessionEviction,
} from './session-eviction.js';
import type { ToolIndex } from './tool-index.js';
import type { ToolReference } from './tool-reference.js';
import type { ToolSearchFallback } from './tool-search-fallback.js';
import { ToolSearchFallbackReporter } from './tool-search-fallback-reporter.js';
import { isBlank } from './tool-search-text.js';
import {
  TOOL_SEARCH_OFFERED_TOOL_NAMES_KEY,
  TOOL_SEARCH_TOOL_NAME,
  TOOL_SEARCH_TOOL_SESSION_ID_KEY,
  toolSearchTool,
} from './tool-search-tool.js';
import { toolSetFingerprint } from './tool-set-fingerprint.js';

/** The advisor-param key the session id is read from by default (the chat-memory conversation id). */
export const DEFAULT_TOOL_SEARCH_SESSION_ID_KEY = 'chat_memory_conversation_id';

/** Appended to the system message by default, exactly as in Spring AI. */
export const DEFAULT_TOOL_SEARCH_SYSTEM_MESSAGE_SUFFIX =
  "\nYou have access to a special tool called `toolSearchTool` that allows you to discover relevant tools on-demand. When you need to perform an action but don't see an appropriate tool in your current context, use `toolSearchTool` to search for it.\n";

/** Options of a {@link ToolSearchToolCallingAdvisor}: the loop's options plus the search's. */
export interface ToolSearchToolCallingAdvisorOptions extends ToolCallingAdvisorOptions {
  /**
   * Holds every session's tools. Default: a new `LexicalToolIndex` (field-weighted BM25 over
   * names, descriptions and parameters; no bundled data, no network). See docs/tool-search.md.
   */
  toolIndex?: ToolIndex;
  /** Results per search when the model gives no `maxResults`; the index's default when absent. */
  maxResults?: number;
  /** The advisor param holding the session id. Default `'chat_memory_conversation_id'`. */
  sessionIdKeyName?: string;
  /** Appended to the first system message (one is added when there is none). */
  systemMessageSuffix?: string;
  /**
   * Offer every tool found by any search of the turn (default `true`); `false` offers only the
   * tools found by the latest round of searches.
   */
  referenceToolNameAccumulation?: boolean;
  /**
   * When a session's index is dropped (Spring AI: the `ToolIndexEvictionStrategy`): past
   * `maxSessions` sessions the least recently used goes, and a session idle for `ttlMs` goes.
   * Default `{ maxSessions: 1000 }`. Copies of the advisor share its sessions.
   */
  eviction?: SessionEvictionOptions;
}

/** Every option name of {@link ToolSearchToolCallingAdvisorOptions}, to refuse a misspelt one. */
const OPTION_NAMES = optionNames<ToolSearchToolCallingAdvisorOptions>()(
  ...TOOL_CALLING_ADVISOR_OPTION_NAMES,
  'toolIndex',
  'maxResults',
  'sessionIdKeyName',
  'systemMessageSuffix',
  'referenceToolNameAccumulation',
  'eviction',
);

/** Per-request data the initialization leaves in the advisor params for every round. */
interface ToolSearchTurn {
  readonly sessionId: string;
  /** Earlier turns as a memory advisor inside the loop will replay them to the model. */
  readonly replayed: readonly Message[];
  readonly searchTool: ToolCallback;
  readonly callbacks: ReadonlyMap<string, ToolCallback>;
  /** Reports the turn's tool-search fallbacks as turn events. */
  readonly fallbacks: ToolSearchFallbackReporter;
}

/** What the advisor knows of an index's sessions; shared by every advisor (and copy) using it. */
interface IndexSessions {
  readonly fingerprints: Map<string, string>;
  readonly updates: Map<string, Promise<void>>;
}

const TURN_KEY = 'toolloop.toolSearch.turn';
/** Context key of the session made up for a request that names none. */
const REQUEST_SESSION_KEY = 'toolloop.toolSearch.requestSession';

/** The session of a request that names none; `indexed` once its tools may be in the index. */
interface RequestSession {
  readonly id: string;
  indexed: boolean;
}
const sessionsByIndex = new WeakMap<ToolIndex, IndexSessions>();
// Keyed by the options object, which copies of an advisor pass on: a copy evicts the sessions its
// original indexed.
const evictionByOptions = new WeakMap<SessionEvictionOptions, SessionEviction>();

function sessionsEvictedUnder(options: SessionEvictionOptions): SessionEviction {
  let eviction = evictionByOptions.get(options);
  if (eviction === undefined) {
    eviction = sessionEviction(options);
    evictionByOptions.set(options, eviction);
  }
  return eviction;
}

function indexSessions(index: ToolIndex): IndexSessions {
  let sessions = sessionsByIndex.get(index);
  if (sessions === undefined) {
    sessions = { fingerprints: new Map(), updates: new Map() };
    sessionsByIndex.set(index, sessions);
  }
  return sessions;
}

/**
 * Progressive tool disclosure: the tool loop, but the model first sees only `toolSearchTool`, and
 * each round it is offered the search tool plus the tools its searches found so far in the turn.
 * A library of hundreds of tools then costs the first call one small definition instead of all of
 * them.
 *
 * Per session (the advisor param `sessionIdKeyName`, by default the chat-memory conversation id
 * `CONVERSATION_ID`) the request's whole tool set is indexed once and re-indexed only when the
 * set's fingerprint changes. A request without a session id gets a session of its own: its tools
 * are indexed for that request only and dropped from the index when the request ends (succeeded,
 * failed, aborted or a stream left early), without taking a slot of the eviction strategy. Discovered tools are derived from the
 * search results in the prompt, the turn's history and, with a memory advisor inside the loop, the
 * earlier turns it replays (read from its `chatMemory`); never stored. They are offered in the order
 * they were found, so the tool list of consecutive calls only grows at its end and a provider's
 * prompt cache keeps hitting. Search results are limited to the tools attached to the request. A
 * request without tools passes through as in the plain loop (no search tool, no suffix).
 */
export class ToolSearchToolCallingAdvisor extends ToolCallingAdvisor {
  override readonly name: string = 'ToolSearchToolCallingAdvisor';
  /** The index holding every session's tools. */
  readonly toolIndex: ToolIndex;
  /** Results per search when the model gives none. */
  readonly maxResults: number | undefined;
  /** The advisor param holding the session id. */
  readonly sessionIdKeyName: string;
  /** Appended to the system message. */
  readonly systemMessageSuffix: string;
  /** Whether tools found by earlier searches of the turn stay offered. */
  readonly referenceToolNameAccumulation: boolean;
  /** When a session's index is dropped. */
  readonly eviction: SessionEvictionOptions;
  readonly #sessions: SessionEviction;

  /**
   * @throws InvalidArgumentError with a blank `sessionIdKeyName` or
   *   `systemMessageSuffix`, a `maxResults` that is not a positive integer, or invalid `eviction`
   *   settings; and for the loop's own invalid options.
   */
  constructor(options: ToolSearchToolCallingAdvisorOptions = {}) {
    if (new.target === ToolSearchToolCallingAdvisor) {
      rejectUnknownOptions(options, OPTION_NAMES, 'ToolSearchToolCallingAdvisor');
    }
    const eviction = options.eviction ?? { ...DEFAULT_SESSION_EVICTION };
    super({ ...options, eviction } as ToolSearchToolCallingAdvisorOptions);
    const sessionIdKeyName = options.sessionIdKeyName ?? DEFAULT_TOOL_SEARCH_SESSION_ID_KEY;
    if (isBlank(sessionIdKeyName))
      throw new InvalidArgumentError('sessionIdKeyName cannot be empty');
    const suffix = options.systemMessageSuffix ?? DEFAULT_TOOL_SEARCH_SYSTEM_MESSAGE_SUFFIX;
    if (isBlank(suffix)) throw new InvalidArgumentError('systemMessageSuffix cannot be empty');
    if (
      options.maxResults !== undefined &&
      !(Number.isInteger(options.maxResults) && options.maxResults > 0)
    ) {
      throw new InvalidArgumentError('maxResults must be a positive integer');
    }
    this.toolIndex = options.toolIndex ?? new LexicalToolIndex();
    this.maxResults = options.maxResults;
    this.sessionIdKeyName = sessionIdKeyName;
    this.systemMessageSuffix = suffix;
    this.referenceToolNameAccumulation = options.referenceToolNameAccumulation ?? true;
    this.eviction = eviction;
    this.#sessions = sessionsEvictedUnder(eviction);
  }

  /**
   * Drops a session's index and fingerprint now (e.g. when its conversation ends); its next request
   * indexes its tools again.
   */
  async evictSession(sessionId: string): Promise<void> {
    await this.toolIndex.clearIndex(sessionId);
    indexSessions(this.toolIndex).fingerprints.delete(sessionId);
    this.#sessions.onRemoved(sessionId);
  }

  /**
   * Runs the loop; a request without a session id runs under a session of its own, dropped from
   * the index when the call settles.
   */
  override async adviseCall(
    request: ChatClientRequest,
    chain: CallAdvisorChain,
  ): Promise<ChatClientResponse> {
    const requestSession = this.#requestSessionFor(request);
    if (requestSession === undefined) return super.adviseCall(request, chain);
    try {
      return await super.adviseCall(withRequestSession(request, requestSession), chain);
    } finally {
      await this.#dropRequestSession(requestSession);
    }
  }

  /**
   * Runs the loop for a stream; a request without a session id runs each iteration under a session
   * of its own, dropped from the index when that iteration ends, fails or is left early.
   */
  override adviseStream(
    request: ChatClientRequest,
    chain: StreamAdvisorChain,
  ): AsyncIterable<ChatClientResponse> {
    if (request == null || this.#requestSessionFor(request) === undefined) {
      return super.adviseStream(request, chain);
    }
    const runLoop = (sessionRequest: ChatClientRequest) =>
      super.adviseStream(sessionRequest, chain);
    const newSession = () => this.#newRequestSession();
    const drop = (session: RequestSession) => this.#dropRequestSession(session);
    async function* streamPerRequest(): AsyncGenerator<ChatClientResponse> {
      const requestSession = newSession();
      try {
        yield* runLoop(withRequestSession(request, requestSession));
      } finally {
        await drop(requestSession);
      }
    }
    return { [Symbol.asyncIterator]: streamPerRequest };
  }

  /** A fresh request-session id when the request names no session, else `undefined`. */
  #requestSessionFor(request: ChatClientRequest): RequestSession | undefined {
    const sessionId = request?.context?.[this.sessionIdKeyName];
    return sessionId === undefined || sessionId === null ? this.#newRequestSession() : undefined;
  }

  #newRequestSession(): RequestSession {
    return { id: `toolloop.request.${randomUUID()}`, indexed: false };
  }

  /** Forgets a request session's tools and fingerprint; it never reached the eviction strategy. */
  async #dropRequestSession(session: RequestSession): Promise<void> {
    if (!session.indexed) return;
    const sessions = indexSessions(this.toolIndex);
    await sessions.updates.get(session.id)?.catch(() => undefined);
    sessions.fingerprints.delete(session.id);
    await this.toolIndex.clearIndex(session.id);
  }

  /**
   * Reads the session id, evicts idle sessions, (re-)indexes the request's tools when the set
   * changed, and appends the suffix to the system message.
   *
   * A request without a session id uses the per-request session `adviseCall`/`adviseStream` made
   * up for it; that one is not tracked by the eviction strategy.
   */
  protected override async doInitializeLoop(
    request: ChatClientRequest,
    loop: ToolLoopContext,
  ): Promise<ChatClientRequest> {
    const initialized = await super.doInitializeLoop(request, loop);
    const options = initialized.prompt.options;
    const attached = (options.toolCallbacks ?? []).filter(
      (callback) => callback.definition.name !== TOOL_SEARCH_TOOL_NAME,
    );
    if (attached.length === 0) return initialized;

    const rawSessionId = initialized.context[this.sessionIdKeyName];
    const requestSession = initialized.context[REQUEST_SESSION_KEY] as RequestSession | undefined;
    let sessionId: string;
    if (rawSessionId !== undefined && rawSessionId !== null) {
      sessionId = String(rawSessionId);
      for (const evicted of this.#sessions.onAccess(sessionId)) {
        await this.evictSession(evicted);
      }
    } else if (requestSession !== undefined) {
      sessionId = requestSession.id;
      requestSession.indexed = true;
    } else {
      // Only a subclass calling this hook outside adviseCall/adviseStream gets here.
      throw new InvalidArgumentError(
        `Tool search needs a session id: set the advisor param '${this.sessionIdKeyName}' (.advisors((a) => a.param('${this.sessionIdKeyName}', 'id')))`,
      );
    }

    const callbacks = new Map<string, ToolCallback>();
    for (const callback of attached) {
      if (!callbacks.has(callback.definition.name))
        callbacks.set(callback.definition.name, callback);
    }
    const fallbacks = new ToolSearchFallbackReporter(initialized.listeners);
    await this.#ensureIndexed(
      sessionId,
      [...callbacks.values()].map(toolReference),
      loop.signal,
      fallbacks.report,
    );

    const turn: ToolSearchTurn = {
      sessionId,
      replayed: await replayedHistory(initialized.context, loop, this.order),
      callbacks,
      fallbacks,
      searchTool: toolSearchTool({
        toolIndex: this.toolIndex,
        ...(this.maxResults === undefined ? {} : { maxResults: this.maxResults }),
        allowedToolNames: new Set(callbacks.keys()),
        onFallback: fallbacks.report,
      }),
    };
    const suffix = this.systemMessageSuffix;
    return {
      ...initialized,
      prompt: {
        ...initialized.prompt,
        messages: augmentSystemMessage(initialized.prompt.messages, (system) => ({
          ...system,
          text: system.text + suffix,
        })),
      },
      context: {
        ...initialized.context,
        [TURN_KEY]: turn,
        [TOOL_SEARCH_TOOL_SESSION_ID_KEY]: sessionId,
      },
    };
  }

  /**
   * Offers the search tool plus the tools found so far (first found first), and puts the session
   * id into the tool context for the search tool.
   */
  protected override async doBeforeCall(
    request: ChatClientRequest,
    loop: ToolLoopContext,
  ): Promise<ChatClientRequest> {
    const prepared = await super.doBeforeCall(request, loop);
    const turn = prepared.context[TURN_KEY] as ToolSearchTurn | undefined;
    if (turn === undefined) return prepared;
    turn.fallbacks.start(String(prepared.context[TOOL_LOOP_TURN_ID]), loop.iteration);
    // Earlier turns a memory advisor inside the loop replays, then the turn's full history (every
    // search of the turn, also when that memory advisor trims the prompt to the latest tool
    // results), then the prompt (what an outer memory advisor or the caller put there).
    const messages = uniqueMessages(
      turn.replayed,
      loop.conversationHistory,
      prepared.prompt.messages,
    );
    const offered: ToolCallback[] = [turn.searchTool];
    for (const name of extractToolNameReferences(messages, this.referenceToolNameAccumulation)) {
      const callback = turn.callbacks.get(name);
      if (callback !== undefined) offered.push(callback);
    }
    const offeredNames = offered.slice(1).map((callback) => callback.definition.name);
    const options = prepared.prompt.options;
    return {
      ...prepared,
      prompt: {
        ...prepared.prompt,
        options: {
          ...options,
          toolCallbacks: offered,
          toolContext: {
            ...options.toolContext,
            [TOOL_SEARCH_TOOL_SESSION_ID_KEY]: turn.sessionId,
            [TOOL_SEARCH_OFFERED_TOOL_NAMES_KEY]: offeredNames,
          },
        },
      },
    };
  }

  /** Indexes the session's tools unless the index already holds exactly this set. */
  async #ensureIndexed(
    sessionId: string,
    references: ToolReference[],
    signal: AbortSignal | undefined,
    onFallback: (fallback: ToolSearchFallback) => void,
  ): Promise<void> {
    const sessions = indexSessions(this.toolIndex);
    const fingerprint = toolSetFingerprint(references);
    // Updates of one session run one after another, so concurrent first requests index once.
    const previous = sessions.updates.get(sessionId) ?? Promise.resolve();
    const update = previous
      .catch(() => undefined)
      .then(async () => {
        if (sessions.fingerprints.get(sessionId) === fingerprint) return;
        sessions.fingerprints.delete(sessionId);
        await this.toolIndex.clearIndex(sessionId);
        await this.toolIndex.indexTools(
          sessionId,
          references,
          signal === undefined ? { onFallback } : { signal, onFallback },
        );
        sessions.fingerprints.set(sessionId, fingerprint);
      });
    sessions.updates.set(sessionId, update);
    try {
      await update;
    } finally {
      if (sessions.updates.get(sessionId) === update) sessions.updates.delete(sessionId);
    }
  }
}

function withRequestSession(
  request: ChatClientRequest,
  session: RequestSession,
): ChatClientRequest {
  return { ...request, context: { ...request.context, [REQUEST_SESSION_KEY]: session } };
}

/**
 * The conversation a memory advisor inside the loop (a larger order than this advisor's) will
 * replay downstream, read from its `chatMemory` under the chat-memory conversation id; empty when
 * there is no such advisor. The search results of earlier turns are in it, so the tools they found
 * stay offered without the model searching again.
 */
async function replayedHistory(
  context: Readonly<Record<string, unknown>>,
  loop: ToolLoopContext,
  order: number,
): Promise<readonly Message[]> {
  const advisors: readonly Advisor[] =
    loop.mode === 'call' ? loop.chain.callAdvisors : loop.chain.streamAdvisors;
  // The memory advisors' key; the same string as this advisor's default session key.
  const conversationId = context[DEFAULT_TOOL_SEARCH_SESSION_ID_KEY];
  if (conversationId === undefined || conversationId === null) return [];
  for (const advisor of advisors) {
    if (!isMemoryAdvisor(advisor) || advisor.order <= order) continue;
    const memory = (advisor as { chatMemory?: { get?: unknown } }).chatMemory;
    if (typeof memory?.get !== 'function') continue;
    const messages: unknown = await (memory as { get(id: string): unknown }).get(
      String(conversationId),
    );
    if (Array.isArray(messages)) return messages as Message[];
  }
  return [];
}

function toolReference(callback: ToolCallback): ToolReference {
  const { name, description, inputSchema } = callback.definition;
  const category = callback.metadata.category;
  return {
    toolName: name,
    summary: description,
    inputSchema,
    ...(typeof category === 'string' ? { category } : {}),
  };
}

function uniqueMessages(...lists: (readonly Message[])[]): Message[] {
  const seen = new Set<Message>();
  const out: Message[] = [];
  for (const list of lists) {
    for (const message of list) {
      if (!seen.has(message)) {
        seen.add(message);
        out.push(message);
      }
    }
  }
  return out;
}
