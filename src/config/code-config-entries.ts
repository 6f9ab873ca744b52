import type { ConfigEntry } from './config-entry.js';
import type { ConfigProblem } from './config-error.js';
import { CONFIG_PROPERTIES } from './config-properties.js';
import type { ToolloopConfigInput } from './toolloop-config.js';

/**
 * The entries of a config object given in code (`{ tools: { limits: { maxTotalToolCalls: 10 } } }`).
 * Each field is matched against the config's field paths; a field that is none is a problem
 * naming its path. `undefined` fields are skipped (they set nothing).
 */
export function codeConfigEntries(input: ToolloopConfigInput): {
  entries: ConfigEntry[];
  problems: ConfigProblem[];
} {
  const entries: ConfigEntry[] = [];
  const problems: ConfigProblem[] = [];
  const paths = CONFIG_PROPERTIES.map((property) => ({ property, path: property.path }));
  const visit = (value: unknown, at: string[]): void => {
    if (value === undefined) return;
    const shown = at.join('.');
    const leaf = paths.find(
      ({ path }) =>
        path.length === at.length &&
        path.every((part, i) => part.startsWith('<') || part === at[i]),
    );
    if (leaf !== undefined) {
      const segments = leaf.property.key.split('.').map((part) => {
        const index = leaf.path.indexOf(part);
        return part.startsWith('<') && index >= 0 ? at[index]! : part;
      });
      entries.push({
        key: segments.join('.'),
        segments,
        value,
        origin: { kind: 'code', path: shown },
      });
      return;
    }
    const prefix = paths.some(
      ({ path }) =>
        path.length > at.length &&
        at.every((part, i) => path[i]!.startsWith('<') || path[i] === part),
    );
    if (!prefix || typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push({
        key: shown === '' ? '(config)' : shown,
        origin: { kind: 'code', path: shown === '' ? '(config)' : shown },
        problem: prefix ? 'expected an object' : 'unknown field',
      });
      return;
    }
    for (const [name, child] of Object.entries(value)) visit(child, [...at, name]);
  };
  visit(input, []);
  return { entries, problems };
}
