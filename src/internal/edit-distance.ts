/** Levenshtein distance, giving up (returning `limit + 1`) once it must exceed `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The candidate a name that matched none of them was most likely meant to be: the nearest within
 * `maxDistance` single-character edits (an exact match is not a suggestion), else `undefined`.
 */
export function closestName(
  written: string,
  candidates: Iterable<string>,
  maxDistance = 3,
): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(written, candidate, maxDistance);
    if (distance === 0 || distance > maxDistance) continue;
    if (best === undefined || distance < best.distance) best = { name: candidate, distance };
  }
  return best?.name;
}
