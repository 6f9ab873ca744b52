import { CONFIG_PROPERTIES } from './config-properties.js';
import { kebabSegment } from './kebab-segment.js';

/** At most this many single-character edits separate a misspelt key from the one it meant. */
const MAX_DISTANCE = 3;

/** Levenshtein distance, giving up (returning `limit + 1`) once it must exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The property key a key that matched none was most likely meant to be (`max-total-tool-call` →
 * `spring.ai.tools.limits.max-total-tool-calls`), in kebab case with its `<name>` placeholders
 * filled from the key; `undefined` when no key is within a few typing mistakes of it.
 */
export function closestConfigKey(segments: readonly string[]): string | undefined {
  const written = segments.map(kebabSegment).join('.');
  let best: { key: string; distance: number } | undefined;
  for (const property of CONFIG_PROPERTIES) {
    const pattern = property.key.split('.');
    const hasPlaceholder = pattern.some((part) => part.startsWith('<'));
    if (hasPlaceholder && pattern.length !== segments.length) continue;
    const candidate = pattern
      .map((part, i) => (part.startsWith('<') ? (segments[i] ?? part) : part))
      .join('.');
    const distance = editDistance(written, candidate, MAX_DISTANCE);
    if (distance === 0 || distance > MAX_DISTANCE) continue;
    if (best === undefined || distance < best.distance) best = { key: candidate, distance };
  }
  return best?.key;
}

/**
 * The environment variable a variable that names no property was most likely meant to be
 * (`TOOLLOOP_TOOLS_MAX_CONCURENCY` → `TOOLLOOP_TOOLS_MAX_CONCURRENCY`); `undefined` when none is
 * within a few typing mistakes. Keys with a `<name>` placeholder are not suggested.
 */
export function closestConfigVariable(variable: string): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const property of CONFIG_PROPERTIES) {
    if (property.key.includes('<')) continue;
    const name = property.key.toUpperCase().replace(/[.-]/g, '_');
    const distance = editDistance(variable, name, MAX_DISTANCE);
    if (distance === 0 || distance > MAX_DISTANCE) continue;
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  return best?.name;
}
