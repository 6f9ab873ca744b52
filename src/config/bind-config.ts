import { closestConfigKey } from './closest-config-key.js';
import type { ConfigEntry } from './config-entry.js';
import type { ConfigOrigin, ConfigProblem } from './config-error.js';
import { CONFIG_PROPERTIES, type ConfigProperty, OWNED_KEY_PREFIXES } from './config-properties.js';
import { convertConfigValue } from './config-value.js';
import { kebabSegment } from './kebab-segment.js';

/** Names that would reach an object's prototype machinery; never accepted as map keys. */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** A property matched by a key, with the names its placeholders took. */
interface MatchedProperty {
  readonly property: ConfigProperty;
  /** The canonical key (kebab case, names filled in). */
  readonly key: string;
  readonly path: readonly string[];
}

/** The property a key names (relaxed: camelCase, snake_case and kebab-case segments all match). */
export function matchConfigKey(segments: readonly string[]): MatchedProperty | undefined {
  for (const property of CONFIG_PROPERTIES) {
    const pattern = property.key.split('.');
    if (pattern.length !== segments.length) continue;
    const names = new Map<string, string>();
    const matches = pattern.every((part, i) => {
      const segment = segments[i]!;
      if (part.startsWith('<')) {
        names.set(part, segment);
        return segment !== '' && !RESERVED_NAMES.has(segment);
      }
      return kebabSegment(segment) === part;
    });
    if (!matches) continue;
    const fill = (part: string): string => names.get(part) ?? part;
    return { property, key: pattern.map(fill).join('.'), path: property.path.map(fill) };
  }
  return undefined;
}

/** True for a key under a prefix toolloop owns (an unknown one there is an error). */
function isOwnedKey(segments: readonly string[]): boolean {
  const key = `${segments.map(kebabSegment).join('.')}.`;
  return OWNED_KEY_PREFIXES.some((prefix) => key.startsWith(prefix));
}

/** Where each field was last set, by dotted path; used for later checks that span fields. */
export type FieldOrigins = Map<string, { key: string; origin: ConfigOrigin }>;

/**
 * Applies entries, in order, onto `target` (a mutable copy of the defaults): each entry is
 * matched to its property, converted, and written to its field. List elements given as
 * `key[0]`, `key[1]`, … are gathered into one list. Problems are collected, not thrown.
 */
export function applyConfigEntries(
  target: Record<string, unknown>,
  entries: readonly ConfigEntry[],
  problems: ConfigProblem[],
  origins: FieldOrigins,
): void {
  const lists = new Map<string, { entry: ConfigEntry; items: unknown[] }>();
  const pending: ConfigEntry[] = [];
  for (const entry of entries) {
    if (entry.index === undefined) {
      pending.push(entry);
      continue;
    }
    const id = entry.segments.join('\u0000');
    const list = lists.get(id);
    if (list === undefined) {
      const items: unknown[] = [];
      items[entry.index] = entry.value;
      lists.set(id, { entry, items });
      pending.push({ ...entry, value: items, index: undefined } as ConfigEntry);
    } else {
      list.items[entry.index] = entry.value;
    }
  }
  for (const entry of pending) {
    const matched = matchConfigKey(entry.segments);
    if (matched === undefined) {
      if (isOwnedKey(entry.segments)) {
        const meant = closestConfigKey(entry.segments);
        problems.push({
          key: entry.key,
          origin: entry.origin,
          problem:
            meant === undefined ? 'unknown property' : `unknown property (did you mean ${meant}?)`,
        });
      }
      continue;
    }
    let value = entry.value;
    if (
      Array.isArray(value) &&
      matched.property.type.kind === 'list' &&
      value.includes(undefined)
    ) {
      problems.push({
        key: matched.key,
        origin: entry.origin,
        problem: 'list indexes must start at 0 with no gaps',
      });
      continue;
    }
    const type =
      entry.origin.kind === 'code' && matched.property.fieldType !== undefined
        ? matched.property.fieldType
        : matched.property.type;
    const converted = convertConfigValue(type, value);
    if (!converted.ok) {
      problems.push({ key: matched.key, origin: entry.origin, problem: converted.problem });
      continue;
    }
    value = converted.value;
    if (entry.origin.kind !== 'code' && matched.property.toField) {
      value = matched.property.toField(value);
    }
    setPath(target, matched.path, value);
    origins.set(matched.path.join('.'), { key: matched.key, origin: entry.origin });
  }
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const segment of path.slice(0, -1)) {
    const next = node[segment];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) {
      const created: Record<string, unknown> = Object.create(null);
      node[segment] = created;
      node = created;
    } else {
      node = next as Record<string, unknown>;
    }
  }
  node[path.at(-1)!] = value;
}
