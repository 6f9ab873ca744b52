import { keepInstanceShape } from '../internal/keep-instance-shape.js';
import { addUsage, type ChatResponse, isUsageEmpty, type Usage } from '../model/index.js';

/**
 * Sums the token usage of the model calls of one tool loop. A loop makes one model call per round,
 * so the caller's final response must report the whole turn, not only its last round.
 *
 * Prompt, completion and total tokens are summed, and so are cache-read and cache-write tokens
 * when any round reports them. Rounds without usage add nothing. One accumulator serves one run of
 * the loop; a stream that is iterated twice gets two accumulators and so two identical totals.
 */
export class UsageAccumulator {
  private sum: Usage | undefined;
  private roundCount = 0;

  /** Adds the usage of one round's response (nothing when it has none). */
  addRound(response: ChatResponse | null | undefined): void {
    this.roundCount++;
    const usage = response?.metadata.usage;
    if (!isUsageEmpty(usage)) this.sum = addUsage(this.sum, copyUsage(usage as Usage));
  }

  /** Number of rounds added so far. */
  get rounds(): number {
    return this.roundCount;
  }

  /** The sum so far, or `undefined` when no round reported usage. */
  get total(): Usage | undefined {
    return this.sum === undefined ? undefined : { ...this.sum };
  }

  /**
   * The response with the summed usage stamped on its metadata. A response of a loop that made one
   * round, or one whose rounds reported no usage, is returned unchanged; `null` stays `null`.
   */
  apply(response: ChatResponse | null): ChatResponse | null {
    if (response === null || this.roundCount <= 1 || this.sum === undefined) return response;
    return { ...response, metadata: { ...response.metadata, usage: { ...this.sum } } };
  }
}

/** Keeps only the counted fields, so provider extras of one round do not leak into the sum. */
function copyUsage(usage: Usage): Usage {
  const copy: Usage = {
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    totalTokens: usage.totalTokens,
  };
  if (usage.cacheReadTokens !== undefined) copy.cacheReadTokens = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) copy.cacheWriteTokens = usage.cacheWriteTokens;
  if (usage.reasoningTokens !== undefined) copy.reasoningTokens = usage.reasoningTokens;
  return copy;
}

keepInstanceShape(new UsageAccumulator()).addRound({
  results: [],
  metadata: { usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } },
});
