import { conversationIdText } from '../advisors/conversation-id.js';
import type {
  CallAdvisor,
  CallAdvisorChain,
  ChatClientRequest,
  ChatClientResponse,
  DurableSteps,
  MemoryAdvisor,
  StreamAdvisor,
  StreamAdvisorChain,
} from '../advisors/index.js';
import { DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER, TOOL_LOOP_TURN_ID } from '../advisors/index.js';
import { InvalidArgumentError } from '../errors/index.js';
import type { AssistantMessage, Message, ToolResponseMessage } from '../messages/index.js';
import { type ChatResponse, ChatResponseAggregator } from '../model/index.js';
import { type ChatMemory, CONVERSATION_ID } from './chat-memory.js';
import { containsRun, jsonEqual } from './message-equality.js';
import { type OpenTurn, OpenTurns, openTurnKey } from './open-turns.js';

/** Options of {@link MessageChatMemoryAdvisor}. */
export interface MessageChatMemoryAdvisorOptions {
  chatMemory: ChatMemory;
  /**
   * Position in the chain. The default, `DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER`, sits outside the
   * tool loop; any order larger than the tool advisor's sits inside it.
   */
  order?: number;
  /** Turns whose tool round never came back that are remembered at most (a bound). Default 1024. */
  maxOpenTurns?: number;
}

/** One request's view of its turn. */
interface TurnState {
  conversationId: string;
  /** The tool loop's id of the turn, when the request comes from one. */
  turnId: string | undefined;
  /** The stored conversation the turn was shown. */
  history: readonly Message[];
  /** The messages of this turn not yet stored, oldest first. */
  staged: Message[];
  /** The durable engine of the turn, whose steps the reads and writes run as. */
  durable: DurableSteps | undefined;
}

/**
 * Gives the model the conversation's history and remembers the turn.
 *
 * Outside the tool loop (the default order) it runs once per turn: it loads the history once and
 * stores the user message and the final answer. Inside the loop (an order larger than the tool
 * advisor's) it runs once per round and the stored transcript holds every tool call and tool
 * response too; history the prompt already holds is not added again, and every round of a turn
 * is shown the history as it was when the turn began.
 *
 * A turn is stored whole or not at all: the turn's messages are staged until a round answers
 * without tool calls, then written by one atomic `ChatMemory.add`. A turn that fails or is aborted
 * leaves the store as it was, so the next prompt never holds a tool call without its response; a
 * turn that ends on tool results (`returnDirect`, a limit breach) is stored when the loop reports
 * it through {@link onToolLoopEnd}. Inside the loop, the rounds of a turn are linked by the turn
 * id the loop puts in every round's context (`TOOL_LOOP_TURN_ID`), never by tool-call ids, which
 * providers may repeat: concurrent turns of one conversation never mix. A tool response that
 * answers no call the advisor or the prompt knows of is never stored (it would be an orphan).
 *
 * In a durable turn (`ChatClientRequest.durable`) every read and write is a step of the engine: a
 * turn recovered after a crash is shown the history it was shown before, and a write whose
 * outcome the crash left unknown is made only if the store does not already end with its messages.
 */
export class MessageChatMemoryAdvisor implements CallAdvisor, StreamAdvisor, MemoryAdvisor {
  readonly name = 'MessageChatMemoryAdvisor';
  readonly isMemoryAdvisor = true as const;
  readonly order: number;
  readonly chatMemory: ChatMemory;
  readonly #openTurns: OpenTurns;

  constructor(options: MessageChatMemoryAdvisorOptions) {
    this.chatMemory = options.chatMemory;
    this.order = options.order ?? DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER;
    this.#openTurns = new OpenTurns(options.maxOpenTurns ?? 1024);
  }

  /**
   * The conversation id of a request's advisor params (`CONVERSATION_ID`), as a string (a number
   * in decimal); throws an `InvalidArgumentError` saying how to set one when it is missing, and
   * one for a value that is not a string or a number (`String()` of any object is the same text,
   * so such ids would all name one conversation).
   */
  static getConversationId(context: Readonly<Record<string, unknown>>): string {
    const value = conversationIdText(context[CONVERSATION_ID]);
    if (value === undefined) {
      throw new InvalidArgumentError(
        "The chat memory advisor needs a conversation id, and this request has none (conversationId cannot be null). Give one per request: .advisors((a) => a.param(CONVERSATION_ID, 'conversation-id')), with CONVERSATION_ID from 'toolloop'; or a default for every request of the client: ChatClient.create(model, { advisors: [memoryAdvisor, (a) => a.param(CONVERSATION_ID, 'default')] })",
      );
    }
    return value;
  }

  async adviseCall(
    request: ChatClientRequest,
    chain: CallAdvisorChain,
  ): Promise<ChatClientResponse> {
    const { request: advised, turn } = await this.#before(request);
    const response = await chain.nextCall(advised);
    await this.#after(turn, response.chatResponse);
    return response;
  }

  async *adviseStream(
    request: ChatClientRequest,
    chain: StreamAdvisorChain,
  ): AsyncIterable<ChatClientResponse> {
    const { request: advised, turn } = await this.#before(request);
    const aggregator = new ChatResponseAggregator();
    for await (const chunk of chain.nextStream(advised)) {
      if (chunk.chatResponse !== null) aggregator.add(chunk.chatResponse);
      yield chunk;
    }
    await this.#after(turn, aggregator.size > 0 ? aggregator.result() : null);
  }

  /**
   * The tool loop ended on tool results (`returnDirect` or a limit breach): stores the open turn
   * with those results, so a successful turn is kept whole although no model answer followed.
   */
  async onToolLoopEnd(request: ChatClientRequest, history: readonly Message[]): Promise<void> {
    const last = history[history.length - 1];
    if (last === undefined || last.role !== 'tool') return;
    const conversationId = MessageChatMemoryAdvisor.getConversationId(request.context);
    const ids = responseIds(last);
    const open = this.#openTurns.take(
      openTurnKey(conversationId, turnIdOf(request.context), ids),
      (turn) => continuesWith(turn, ids, undefined),
    );
    if (open) {
      await this.#write(request.durable, conversationId, [...open.staged, last]);
      return;
    }
    // The turn was forgotten (more open turns than the bound): the loop's history holds it all.
    const callerAt = findCaller(history, history.length - 1, ids);
    if (callerAt === -1) return;
    const memory = await this.#read(request.durable, conversationId);
    await this.#write(request.durable, conversationId, [
      ...turnBefore(history, callerAt, memory),
      last,
    ]);
  }

  async #before(
    request: ChatClientRequest,
  ): Promise<{ request: ChatClientRequest; turn: TurnState }> {
    const conversationId = MessageChatMemoryAdvisor.getConversationId(request.context);
    const turnId = turnIdOf(request.context);
    const instructions = request.prompt.messages;
    const currentAt = lastUserOrToolResponse(instructions);
    const current: Message = instructions[currentAt] ?? { role: 'user', text: '' };

    let open: OpenTurn | undefined;
    let callerAt = -1;
    if (current.role === 'tool') {
      const ids = responseIds(current);
      callerAt = findCaller(instructions, currentAt, ids);
      const caller = instructions[callerAt];
      open = this.#openTurns.take(openTurnKey(conversationId, turnId, ids), (turn) =>
        continuesWith(turn, ids, caller),
      );
    }
    const history = open ? open.history : await this.#read(request.durable, conversationId);
    let before: readonly Message[] = [];
    if (open) before = open.staged;
    else if (callerAt !== -1) before = turnBefore(instructions, callerAt, history);
    const orphan = current.role === 'tool' && !open && callerAt === -1;

    const messages = [
      ...(containsRun(instructions, history) ? [] : history),
      ...(containsRun(instructions, before) ? [] : before),
      ...instructions,
    ];
    const systemIndex = messages.findIndex((message) => message.role === 'system');
    if (systemIndex > 0) messages.unshift(...messages.splice(systemIndex, 1));

    return {
      request: { ...request, prompt: { ...request.prompt, messages } },
      turn: {
        conversationId,
        turnId,
        history,
        staged: orphan ? [] : [...before, current],
        durable: request.durable,
      },
    };
  }

  async #after(turn: TurnState, chatResponse: ChatResponse | null): Promise<void> {
    const outputs: AssistantMessage[] = chatResponse?.results.map((result) => result.output) ?? [];
    const transcript = [...turn.staged, ...outputs];
    const caller = outputs.find((output) => output.toolCalls.length > 0);
    if (caller) {
      this.#openTurns.open(
        openTurnKey(
          turn.conversationId,
          turn.turnId,
          caller.toolCalls.map((call) => call.id),
        ),
        { history: turn.history, staged: transcript },
      );
      return;
    }
    await this.#write(turn.durable, turn.conversationId, transcript);
  }

  /** The stored conversation; in a durable turn a step, so a recovered turn reads the same. */
  #read(durable: DurableSteps | undefined, conversationId: string): Promise<Message[]> {
    if (durable === undefined) return this.chatMemory.get(conversationId);
    return durable.runStep('memory.get', () => this.chatMemory.get(conversationId));
  }

  /**
   * Stores a turn; in a durable turn a step, and when a crash left the outcome of an earlier
   * write unknown, the messages are added only if the conversation does not end with them yet.
   */
  async #write(
    durable: DurableSteps | undefined,
    conversationId: string,
    turn: readonly Message[],
  ): Promise<void> {
    const messages = storable(turn);
    if (durable === undefined) return this.chatMemory.add(conversationId, messages);
    const add = async () => {
      await this.chatMemory.add(conversationId, messages);
      return null;
    };
    await durable.runStep('memory.add', add, {
      reconcile: async () => {
        const stored = await this.chatMemory.get(conversationId);
        const tail = stored.slice(Math.max(0, stored.length - messages.length));
        return tail.length === messages.length && jsonEqual(tail, messages) ? null : add();
      },
    });
  }
}

/**
 * The turn as a store holds it. A tool call whose arguments a server sent as a JSON value instead
 * of text stays in the loop's transcript (it was refused, never run), but stores hold arguments as
 * text: it is stored as that value's JSON text rather than fail the whole turn.
 */
function storable(turn: readonly Message[]): readonly Message[] {
  if (!turn.some(hasArgumentsNotText)) return turn;
  return turn.map((message) =>
    hasArgumentsNotText(message)
      ? {
          ...message,
          toolCalls: message.toolCalls.map((call) =>
            typeof call.arguments === 'string'
              ? call
              : { ...call, arguments: JSON.stringify(call.arguments) ?? '' },
          ),
        }
      : message,
  );
}

function hasArgumentsNotText(message: Message): message is AssistantMessage {
  return (
    message.role === 'assistant' &&
    message.toolCalls.some((call) => typeof call.arguments !== 'string')
  );
}

function turnIdOf(context: Readonly<Record<string, unknown>>): string | undefined {
  const value = context[TOOL_LOOP_TURN_ID];
  return typeof value === 'string' ? value : undefined;
}

/** Index of the last user or tool response message, or -1. */
function lastUserOrToolResponse(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    const role = (messages[index] as Message).role;
    if (role === 'user' || role === 'tool') return index;
  }
  return -1;
}

function responseIds(message: ToolResponseMessage): string[] {
  return message.responses.map((response) => response.id);
}

function sameIds(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  const sortedRight = [...right].sort();
  return [...left].sort().every((id, index) => id === sortedRight[index]);
}

/** Index of the assistant message before `before` whose calls the responses `ids` answer, or -1. */
function findCaller(messages: readonly Message[], before: number, ids: readonly string[]): number {
  for (let index = before - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (
      message.role === 'assistant' &&
      message.toolCalls.length > 0 &&
      sameIds(
        message.toolCalls.map((call) => call.id),
        ids,
      )
    ) {
      return index;
    }
  }
  return -1;
}

/**
 * True when the open turn's last message made the calls the responses `ids` answer and, when the
 * prompt shows that call (`caller`), is that very message: a turn found by call ids alone may
 * belong to a concurrent turn that used the same ids.
 */
function continuesWith(
  turn: OpenTurn,
  ids: readonly string[],
  caller: Message | undefined,
): boolean {
  const last = turn.staged[turn.staged.length - 1];
  if (last?.role !== 'assistant') return false;
  if (
    !sameIds(
      last.toolCalls.map((call) => call.id),
      ids,
    )
  ) {
    return false;
  }
  return caller === undefined || jsonEqual(last, caller);
}

/**
 * The turn a tool response belongs to as `messages` show it, when the advisor holds no open turn
 * for it: from the user message before its call (at `callerAt`) to the call, without system
 * messages and without what the stored `history` already ends with.
 */
function turnBefore(
  messages: readonly Message[],
  callerAt: number,
  history: readonly Message[],
): Message[] {
  let start = callerAt;
  for (let index = callerAt - 1; index >= 0; index--) {
    if ((messages[index] as Message).role === 'user') {
      start = index;
      break;
    }
  }
  const run = messages.slice(start, callerAt + 1).filter((message) => message.role !== 'system');
  for (let overlap = Math.min(run.length, history.length); overlap > 0; overlap--) {
    const tail = history.slice(history.length - overlap);
    if (tail.every((message, index) => jsonEqual(message, run[index]))) return run.slice(overlap);
  }
  return run;
}
