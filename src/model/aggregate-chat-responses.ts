import type { AssistantMessage, Metadata, ToolCall } from '../messages/index.js';
import {
  type ChatResponse,
  type ChatResponseMetadata,
  type Generation,
  isUsageEmpty,
  type Usage,
} from './chat-response.js';

interface GenerationAccumulator {
  text: string;
  sawText: boolean;
  toolCalls: ToolCall[];
  messageMetadata: Metadata | undefined;
  generationMetadata: Generation['metadata'];
}

/**
 * Folds streamed chunks into one response incrementally: text is concatenated per generation,
 * tool calls are kept whole in arrival order, usage is taken from the last chunk that carries
 * non-zero counts, and other metadata is merged with later chunks winning. Tool-call deltas
 * (`toolCallDeltas`) are for display only and are left out: the complete calls carry everything.
 */
export class ChatResponseAggregator {
  private readonly generations: GenerationAccumulator[] = [];
  private metadata: ChatResponseMetadata = {};
  private usage: Usage | undefined;
  private chunkCount = 0;

  /** Adds one chunk. */
  add(chunk: ChatResponse): void {
    this.chunkCount++;
    const chunkMetadata = chunk.metadata;
    const usage = chunkMetadata.usage;
    // Providers repeat zeroed usage on content chunks; only a chunk with real counts replaces it.
    if (usage && (!this.usage || !isUsageEmpty(usage))) this.usage = usage;
    // Most chunks carry no metadata besides usage: no copies for them.
    if (hasKeyBesides(chunkMetadata, 'usage')) {
      const { usage: _usage, ...rest } = chunkMetadata;
      this.metadata = { ...this.metadata, ...rest };
    }
    const results = chunk.results;
    // The usual chunk has one generation: no hole check and no loop for it.
    if (results.length === 1 && results[0] !== undefined) {
      this.addGeneration(0, results[0]);
      return;
    }
    for (let index = 0; index < results.length; index++) {
      if (!(index in results)) continue;
      this.addGeneration(index, results[index] as Generation);
    }
  }

  private addGeneration(index: number, generation: Generation): void {
    let accumulator = this.generations[index];
    if (!accumulator) {
      accumulator = {
        text: '',
        sawText: false,
        toolCalls: [],
        messageMetadata: undefined,
        generationMetadata: { finishReason: null },
      };
      this.generations[index] = accumulator;
    }
    const output = generation.output;
    if (output.text !== null && output.text !== undefined) {
      accumulator.text += output.text;
      accumulator.sawText = true;
    }
    const toolCalls = output.toolCalls;
    for (let index = 0; index < toolCalls.length; index++) {
      accumulator.toolCalls.push(toolCalls[index] as ToolCall);
    }
    if (output.metadata) {
      accumulator.messageMetadata = { ...accumulator.messageMetadata, ...output.metadata };
    }
    const generationMetadata = generation.metadata;
    const finishReason = generationMetadata.finishReason;
    // A new object whenever something changes (a result handed out earlier keeps its own), none
    // for the usual delta that carries nothing but a null finish reason.
    if (hasKeyBesides(generationMetadata, 'finishReason')) {
      const { finishReason: _finishReason, ...generationRest } = generationMetadata;
      accumulator.generationMetadata = {
        ...accumulator.generationMetadata,
        ...generationRest,
        finishReason: finishReason ?? accumulator.generationMetadata.finishReason,
      };
    } else if (finishReason != null) {
      accumulator.generationMetadata = { ...accumulator.generationMetadata, finishReason };
    }
  }

  /** Number of chunks added so far. */
  get size(): number {
    return this.chunkCount;
  }

  /** The aggregated response so far. */
  result(): ChatResponse {
    const results: Generation[] = this.generations.map((accumulator) => {
      const output: AssistantMessage = {
        role: 'assistant',
        text: accumulator.sawText ? accumulator.text : null,
        toolCalls: accumulator.toolCalls,
      };
      if (accumulator.messageMetadata) output.metadata = accumulator.messageMetadata;
      return { output, metadata: accumulator.generationMetadata };
    });
    const metadata: ChatResponseMetadata = { ...this.metadata };
    if (this.usage) metadata.usage = this.usage;
    return { results, metadata };
  }
}

/** Aggregates a finished sequence of streamed chunks into one response. */
export function aggregateChatResponses(chunks: Iterable<ChatResponse>): ChatResponse {
  const aggregator = new ChatResponseAggregator();
  for (const chunk of chunks) aggregator.add(chunk);
  return aggregator.result();
}

/** Whether `object` has an own enumerable string key other than `key`. */
function hasKeyBesides(object: object, key: string): boolean {
  for (const name in object) if (name !== key && Object.hasOwn(object, name)) return true;
  return false;
}
