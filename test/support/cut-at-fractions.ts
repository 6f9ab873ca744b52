/**
 * Cuts a string into pieces at code-point positions given as fractions of its length (0 to 1),
 * for property tests that feed a parser the same text in random pieces.
 */
export function cutAtFractions(text: string, fractions: readonly number[]): string[] {
  const points = [...text];
  const offsets = [
    ...new Set(fractions.map((fraction) => Math.floor(fraction * points.length))),
  ].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const offset of offsets) {
    pieces.push(points.slice(start, offset).join(''));
    start = offset;
  }
  pieces.push(points.slice(start).join(''));
  return pieces;
}
