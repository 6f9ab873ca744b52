import type {
  CallAdvisor,
  CallAdvisorChain,
  ChatClientRequest,
  ChatClientResponse,
  MemoryAdvisor,
  StreamAdvisor,
  StreamAdvisorChain,
} from '../advisors/index.js';
import { DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER } from '../advisors/index.js';
import { InvalidArgumentError } from '../errors/index.js';
import type { AssistantMessage, Message } from '../messages/index.js';
import { type ChatResponse, ChatResponseAggregator } from '../model/index.js';
import { type ChatMemory, CONVERSATION_ID } from './chat-memory.js';
import { containsRun, jsonEqual } from './message-equality.js';

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

interface TurnState {
  conversationId: string;
  /** The messages of this turn not yet stored, oldest first. */
  staged: Message[];
}

/**
 * Gives the model the conversation's history and remembers the turn.
 *
 * Outside the tool loop (the default order) it runs once per turn: it loads the history once and
 * stores the user message and the final answer. Inside the loop (an order larger than the tool
 * advisor's) it runs once per round and the stored transcript holds every tool call and tool
 * response too; history the prompt already holds is not added again.
 *
 * A turn is stored whole or not at all: the turn's messages are staged until a round answers
 * without tool calls, then written by one atomic `ChatMemory.add`. A turn that fails, is aborted,
 * or ends without an answer (a `returnDirect` or limit ending inside the loop) leaves the store
 * as it was, so the next prompt never holds a tool call without its response. Rounds are linked by
 * the ids of the tool calls they answer, so concurrent turns of one conversation never mix.
 */
export class MessageChatMemoryAdvisor implements CallAdvisor, StreamAdvisor, MemoryAdvisor {
  readonly name = 'MessageChatMemoryAdvisor';
  readonly isMemoryAdvisor = true as const;
  readonly order: number;
  readonly chatMemory: ChatMemory;
  readonly #openTurns = new Map<string, Message[]>();
  readonly #maxOpenTurns: number;

  constructor(options: MessageChatMemoryAdvisorOptions) {
    if (options?.chatMemory == null) throw new InvalidArgumentError('chatMemory cannot be null');
    this.chatMemory = options.chatMemory;
    this.order = options.order ?? DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER;
    this.#maxOpenTurns = options.maxOpenTurns ?? 1024;
  }

  /**
   * The conversation id of a request's advisor params (`CONVERSATION_ID`), as a string; throws an
   * `InvalidArgumentError` saying how to set one when it is missing.
   */
  static getConversationId(context: Readonly<Record<string, unknown>>): string {
    if (context == null) throw new InvalidArgumentError('context cannot be null');
    const value = context[CONVERSATION_ID];
    if (value === null || value === undefined) {
      throw new InvalidArgumentError(
        "conversationId cannot be null: the memory advisor needs a conversation id. Set one per request with .advisors((a) => a.param(CONVERSATION_ID, 'conversation-id')) (CONVERSATION_ID from 'toolloop'), or for every request of a client with ChatClient.create(model, { advisors: [memoryAdvisor, (a) => a.param(CONVERSATION_ID, 'conversation-id')] })",
      );
    }
    return String(value);
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
    const key = openTurnKey(
      conversationId,
      last.responses.map((response) => response.id),
    );
    const open = this.#openTurns.get(key);
    if (!open) return;
    this.#openTurns.delete(key);
    await this.chatMemory.add(conversationId, [...open, last]);
  }

  async #before(
    request: ChatClientRequest,
  ): Promise<{ request: ChatClientRequest; turn: TurnState }> {
    const conversationId = MessageChatMemoryAdvisor.getConversationId(request.context);
    const memory = await this.chatMemory.get(conversationId);
    const instructions = request.prompt.messages;
    const current = lastUserOrToolResponse(instructions);

    let staged: Message[] = [];
    if (current.role === 'tool') {
      const key = openTurnKey(
        conversationId,
        current.responses.map((response) => response.id),
      );
      const open = this.#openTurns.get(key);
      if (open) {
        this.#openTurns.delete(key);
        staged = open;
      } else {
        // No open turn: keep the tool pair whole by storing the call with its responses when the
        // stored history does not end with it.
        const caller = findCaller(
          instructions,
          current.responses.map((response) => response.id),
        );
        const last = memory[memory.length - 1];
        if (caller && !(last && jsonEqual(last, caller))) staged = [caller];
      }
    }

    const history = [...memory, ...staged];
    const messages = containsRun(instructions, history)
      ? [...instructions]
      : [...history, ...instructions];
    const systemIndex = messages.findIndex((message) => message.role === 'system');
    if (systemIndex > 0) messages.unshift(...messages.splice(systemIndex, 1));

    return {
      request: { ...request, prompt: { ...request.prompt, messages } },
      turn: { conversationId, staged: [...staged, current] },
    };
  }

  async #after(turn: TurnState, chatResponse: ChatResponse | null): Promise<void> {
    const outputs: AssistantMessage[] = chatResponse?.results.map((result) => result.output) ?? [];
    const transcript = [...turn.staged, ...outputs];
    const caller = outputs.find((output) => output.toolCalls.length > 0);
    if (caller) {
      this.#openTurn(
        openTurnKey(
          turn.conversationId,
          caller.toolCalls.map((call) => call.id),
        ),
        transcript,
      );
      return;
    }
    await this.chatMemory.add(turn.conversationId, transcript);
  }

  #openTurn(key: string, transcript: Message[]): void {
    this.#openTurns.delete(key);
    this.#openTurns.set(key, transcript);
    while (this.#openTurns.size > this.#maxOpenTurns) {
      const oldest = this.#openTurns.keys().next();
      if (oldest.done) break;
      this.#openTurns.delete(oldest.value);
    }
  }
}

function lastUserOrToolResponse(messages: readonly Message[]): Message {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role === 'user' || message.role === 'tool') return message;
  }
  return { role: 'user', text: '' };
}

function findCaller(messages: readonly Message[], ids: readonly string[]): Message | undefined {
  const wanted = [...ids].sort().join('\u0000');
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (
      message.role === 'assistant' &&
      message.toolCalls
        .map((call) => call.id)
        .sort()
        .join('\u0000') === wanted
    ) {
      return message;
    }
  }
  return undefined;
}

function openTurnKey(conversationId: string, ids: readonly string[]): string {
  return `${conversationId}\u0000${[...ids].sort().join('\u0000')}`;
}
