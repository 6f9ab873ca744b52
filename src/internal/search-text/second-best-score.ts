/**
 * The second-highest positive score among the slots `accepted` keeps (all when it is
 * `undefined`), or the highest when only one is positive, or `0`: the scale a search divides or
 * weighs its scores by, so one tool far ahead of the others does not set it alone.
 */
export function secondBestScore(scores: Float64Array, accepted?: Uint8Array): number {
  let best = 0;
  let second = 0;
  for (let slot = 0; slot < scores.length; slot++) {
    if (accepted !== undefined && !accepted[slot]) continue;
    const score = scores[slot] as number;
    if (score > best) {
      second = best;
      best = score;
    } else if (score > second) {
      second = score;
    }
  }
  return second > 0 ? second : best;
}
