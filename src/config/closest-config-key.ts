import { closestName } from '../internal/edit-distance.js';
import { CONFIG_PROPERTIES } from './config-properties.js';
import { kebabSegment } from './kebab-segment.js';

/** At most this many single-character edits separate a misspelt key from the one it meant. */
const MAX_DISTANCE = 3;

/**
 * The property key a key that matched none was most likely meant to be (`max-total-tool-call` →
 * `spring.ai.tools.limits.max-total-tool-calls`), in kebab case with its `<name>` placeholders
 * filled from the key; `undefined` when no key is within a few typing mistakes of it.
 */
export function closestConfigKey(segments: readonly string[]): string | undefined {
  const written = segments.map(kebabSegment).join('.');
  const candidates = CONFIG_PROPERTIES.flatMap(({ key }) => {
    const pattern = key.split('.');
    const hasPlaceholder = pattern.some((part) => part.startsWith('<'));
    if (hasPlaceholder && pattern.length !== segments.length) return [];
    return [
      pattern.map((part, i) => (part.startsWith('<') ? (segments[i] ?? part) : part)).join('.'),
    ];
  });
  return closestName(written, candidates, MAX_DISTANCE);
}

/**
 * The environment variable a variable that names no property was most likely meant to be
 * (`TOOLLOOP_TOOLS_MAX_CONCURENCY` → `TOOLLOOP_TOOLS_MAX_CONCURRENCY`); `undefined` when none is
 * within a few typing mistakes. Keys with a `<name>` placeholder are not suggested.
 */
export function closestConfigVariable(variable: string): string | undefined {
  const variables = CONFIG_PROPERTIES.filter(({ key }) => !key.includes('<')).map(({ key }) =>
    key.toUpperCase().replace(/[.-]/g, '_'),
  );
  return closestName(variable, variables, MAX_DISTANCE);
}
