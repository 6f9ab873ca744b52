import { IllegalStateError, InvalidArgumentError } from '../errors/index.js';
import type {
  ChatModel,
  ChatModelCallOptions,
  ChatOptions,
  ChatResponse,
  Generation,
  Prompt,
  ToolCallDelta,
} from '../model/index.js';
import { isStreamedResponse, type StreamedResponse } from './scripted-response.js';

/** What a scripted turn may produce: a response, a response with a stream layout, or an error to throw. */
export type ScriptedOutcome = ChatResponse | StreamedResponse | Error;

/** Information a function turn receives beside the prompt. */
export interface ScriptedTurnInfo {
  /** 1-based number of this model call. */
  callNumber: number;
  signal?: AbortSignal;
}

/**
 * One queued model turn: a fixed outcome, or a function of the prompt (for answers that depend on
 * what the model was sent, such as echoing a tool result).
 */
export type ScriptedTurn =
  | ScriptedOutcome
  | ((prompt: Prompt, info: ScriptedTurnInfo) => ScriptedOutcome | Promise<ScriptedOutcome>);

/** Options of a {@link ScriptedChatModel}. */
export interface ScriptedChatModelOptions<Options extends ChatOptions = ChatOptions> {
  /** Exposed as the model's `defaultOptions` (merged under every client request). */
  defaultOptions?: Options;
  /** Text deltas per generation when streaming a plain response. Default 3. */
  textChunks?: number;
  /**
   * Pieces each tool call's argument text is streamed in (as `toolCallDeltas`, before the chunk
   * with the complete calls) when streaming a plain response. Default 0: calls arrive whole only.
   */
  argumentChunks?: number;
}

/**
 * A real `ChatModel` that answers from a queue instead of a network: every call takes the next
 * scripted turn and records the prompt it was sent. When the queue runs dry it throws, so a test
 * that expects fewer model calls than happen fails loudly instead of passing by accident.
 * `Options` is the option type it stands in for (a provider's, to test code that sets provider
 * options); default {@link ChatOptions}.
 */
export class ScriptedChatModel<Options extends ChatOptions = ChatOptions>
  implements ChatModel<Options>
{
  readonly defaultOptions?: Options;
  /**
   * Every prompt received, in call order. Messages are deep copies taken at call time (later
   * mutation by the caller does not change them); options are kept as given, since tool callbacks
   * carry functions.
   */
  readonly prompts: Prompt<Options>[] = [];
  private readonly script: ScriptedTurn[];
  private readonly textChunks: number;
  private readonly argumentChunks: number;
  private scriptedCount: number;

  /** @throws InvalidArgumentError when `script` is not an array (a lone turn not wrapped in one). */
  constructor(
    script: readonly ScriptedTurn[] = [],
    options: ScriptedChatModelOptions<Options> = {},
  ) {
    if (!Array.isArray(script)) {
      // A lone function or response (plain JavaScript) would otherwise fail as "not iterable".
      throw new InvalidArgumentError(
        'ScriptedChatModel takes an array of turns: wrap a single response or function in [ ]',
      );
    }
    this.script = [...script];
    this.scriptedCount = script.length;
    this.textChunks = options.textChunks ?? 3;
    this.argumentChunks = options.argumentChunks ?? 0;
    if (options.defaultOptions !== undefined) this.defaultOptions = options.defaultOptions;
  }

  /** Number of model calls made so far (`call` and `stream` alike). */
  get callCount(): number {
    return this.prompts.length;
  }

  /** Number of scripted turns not used yet. */
  get remaining(): number {
    return this.script.length;
  }

  /** Appends turns to the queue. */
  enqueue(...turns: ScriptedTurn[]): void {
    this.script.push(...turns);
    this.scriptedCount += turns.length;
  }

  async call(prompt: Prompt<Options>, options: ChatModelCallOptions = {}): Promise<ChatResponse> {
    const outcome = await this.nextOutcome(prompt, options.signal);
    return isStreamedResponse(outcome) ? outcome.response : outcome;
  }

  async *stream(
    prompt: Prompt<Options>,
    options: ChatModelCallOptions = {},
  ): AsyncIterable<ChatResponse> {
    const outcome = await this.nextOutcome(prompt, options.signal);
    const chunks = isStreamedResponse(outcome)
      ? splitIntoChunks(outcome.response, outcome.textChunks, outcome.argumentChunks)
      : splitIntoChunks(outcome, this.textChunks, this.argumentChunks);
    for (const chunk of chunks) {
      options.signal?.throwIfAborted();
      yield chunk;
    }
  }

  private async nextOutcome(
    prompt: Prompt<Options>,
    signal: AbortSignal | undefined,
  ): Promise<ChatResponse | StreamedResponse> {
    signal?.throwIfAborted();
    this.prompts.push({ messages: structuredClone(prompt.messages), options: prompt.options });
    const callNumber = this.prompts.length;
    const turn = this.script.shift();
    if (turn === undefined) {
      throw new IllegalStateError(
        `ScriptedChatModel: no scripted response left for call ${callNumber} (${this.scriptedCount} ${this.scriptedCount === 1 ? 'was' : 'were'} scripted)`,
      );
    }
    const outcome = typeof turn === 'function' ? await turn(prompt, { callNumber, signal }) : turn;
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }
}

function splitText(text: string, parts: number): string[] {
  const characters = Array.from(text);
  const count = Math.max(1, Math.min(parts, characters.length));
  const size = Math.ceil(characters.length / count);
  const pieces: string[] = [];
  for (let start = 0; start < characters.length; start += size) {
    pieces.push(characters.slice(start, start + size).join(''));
  }
  return pieces.length === 0 ? [''] : pieces;
}

/**
 * Cuts a response the way providers stream: text in deltas, then (with `argumentChunks`) each
 * tool call's arguments in `toolCallDeltas` pieces, then each tool call whole in the last chunk
 * together with the finish reason and the usage; id and model on every chunk.
 */
function splitIntoChunks(
  response: ChatResponse,
  textChunks: number,
  argumentChunks: number,
): ChatResponse[] {
  const { usage, ...sharedMetadata } = response.metadata;
  const pieces = response.results.map((generation) =>
    generation.output.text === null ? [] : splitText(generation.output.text, textChunks),
  );
  const chunkCount = Math.max(1, ...pieces.map((list) => list.length));
  const chunks: ChatResponse[] = [];
  for (let index = 0; index < chunkCount; index++) {
    const last = index === chunkCount - 1;
    const results: Generation[] = response.results.map((generation, generationIndex) => {
      const text = pieces[generationIndex]?.[index] ?? null;
      if (!last) {
        return {
          output: { role: 'assistant', text, toolCalls: [] },
          metadata: { finishReason: null },
        };
      }
      const output: Generation['output'] = {
        role: 'assistant',
        text,
        toolCalls: generation.output.toolCalls.map((call) => ({ ...call })),
      };
      if (generation.output.metadata) output.metadata = generation.output.metadata;
      return { output, metadata: { ...generation.metadata } };
    });
    const metadata: ChatResponse['metadata'] = { ...sharedMetadata };
    if (last && usage) metadata.usage = usage;
    if (last && argumentChunks > 0) {
      chunks.push(...argumentDeltaChunks(response, argumentChunks, sharedMetadata));
    }
    chunks.push({ results, metadata });
  }
  return chunks;
}

/** One chunk per argument piece of every tool call, generation by generation, call by call. */
function argumentDeltaChunks(
  response: ChatResponse,
  argumentChunks: number,
  sharedMetadata: ChatResponse['metadata'],
): ChatResponse[] {
  const chunks: ChatResponse[] = [];
  response.results.forEach((generation, generationIndex) => {
    generation.output.toolCalls.forEach((call, callIndex) => {
      splitText(call.arguments, argumentChunks).forEach((piece, pieceIndex) => {
        const delta: ToolCallDelta = { id: call.id, index: callIndex, arguments: piece };
        if (pieceIndex === 0) delta.name = call.name;
        const results: Generation[] = response.results.map(() => ({
          output: { role: 'assistant', text: null, toolCalls: [] },
          metadata: { finishReason: null },
        }));
        (results[generationIndex] as Generation).toolCallDeltas = [delta];
        chunks.push({ results, metadata: { ...sharedMetadata } });
      });
    });
  });
  return chunks;
}
