import { closestConfigVariable } from './closest-config-key.js';
import type { ConfigEntry } from './config-entry.js';
import type { ConfigProblem } from './config-error.js';
import { CONFIG_PROPERTIES, OWNED_KEY_PREFIXES } from './config-properties.js';

/** Environment variables as `process.env` holds them. */
export type ConfigEnvironment = Readonly<Record<string, string | undefined>>;

const PREFIXES = ['SPRING_AI_', 'SPRING_DATASOURCE_', 'TOOLLOOP_'];

/** The owned prefixes as environment names compare; under `TOOLLOOP_`, only the config's sections. */
const OWNED_ENV_PREFIXES = OWNED_KEY_PREFIXES.flatMap((prefix) =>
  prefix === 'toolloop.'
    ? ['model', 'providers', 'tools', 'chat-client', 'memory', 'mcp', 'observability'].map(
        (section) => `toolloop.${section}`,
      )
    : [prefix],
).map((prefix) =>
  prefix
    .split('.')
    .map((segment) => segment.replace(/-/g, '').toUpperCase())
    .join(''),
);

/** `max-total-tool-calls` → `MAXTOTALTOOLCALLS`: a key segment as an environment name compares. */
const compact = (segment: string): string => segment.replace(/-/g, '').toUpperCase();

/**
 * The entries of the environment, read with Spring Boot's relaxed binding: a variable names a
 * key in upper case with `_` for `.` and `-` dropped or written as `_`
 * (`SPRING_AI_TOOLS_LIMITS_MAX_TOTAL_TOOL_CALLS` and `SPRING_AI_TOOLS_LIMITS_MAXTOTALTOOLCALLS`
 * both set `spring.ai.tools.limits.max-total-tool-calls`). A name segment (`<name>` of
 * `…connections.<name>.command`) is read in lower case with `_` as `-`
 * (`…_CONNECTIONS_MY_SERVER_COMMAND` → `my-server`); an MCP server's environment variable name
 * (`…_ENV_<VARIABLE>`) is kept as written. Lists are comma-separated.
 *
 * Only `SPRING_AI_*`, `SPRING_DATASOURCE_*` and `TOOLLOOP_*` variables are read. One that names
 * no property but falls under a prefix toolloop owns (`TOOLLOOP_TOOLS_…`,
 * `SPRING_AI_TOOLS_…`) is a problem; others (`TOOLLOOP_NO_INSTALL`, `SPRING_AI_OLLAMA_…`)
 * belong to something else and are ignored.
 */
export function environmentConfigEntries(env: ConfigEnvironment): {
  entries: ConfigEntry[];
  problems: ConfigProblem[];
} {
  const entries: ConfigEntry[] = [];
  const problems: ConfigProblem[] = [];
  for (const variable of Object.keys(env).sort()) {
    const value = env[variable];
    if (value === undefined || !PREFIXES.some((prefix) => variable.startsWith(prefix))) continue;
    const tokens = variable.split('_').filter((token) => token !== '');
    const match = matchVariable(tokens);
    const origin = { kind: 'env', variable } as const;
    if (match !== undefined) {
      entries.push({ key: match.join('.'), segments: match, value, origin });
      continue;
    }
    const owned = OWNED_ENV_PREFIXES.some((prefix) => tokens.join('').startsWith(prefix));
    if (owned) {
      problems.push({
        key: variable,
        origin,
        problem: `names no toolloop property (${meantVariable(variable)})`,
      });
    }
  }
  return { entries, problems };
}

/** The key segments a variable's tokens spell, or `undefined`. */
function matchVariable(tokens: readonly string[]): string[] | undefined {
  for (const property of CONFIG_PROPERTIES) {
    const pattern = property.key.split('.');
    const segments = matchTokens(tokens, 0, pattern, 0);
    if (segments !== undefined) return segments;
  }
  return undefined;
}

function matchTokens(
  tokens: readonly string[],
  at: number,
  pattern: readonly string[],
  patternAt: number,
): string[] | undefined {
  if (patternAt === pattern.length) return at === tokens.length ? [] : undefined;
  const segment = pattern[patternAt]!;
  const last = patternAt === pattern.length - 1;
  for (let end = at + 1; end <= tokens.length; end += 1) {
    if (last && end < tokens.length) continue;
    const taken = tokens.slice(at, end);
    let value: string | undefined;
    if (segment === '<variable>') value = taken.join('_');
    else if (segment.startsWith('<')) value = taken.join('-').toLowerCase();
    else if (taken.join('') === compact(segment)) value = segment;
    if (value === undefined) continue;
    const rest = matchTokens(tokens, end, pattern, patternAt + 1);
    if (rest !== undefined) return [value, ...rest];
  }
  return undefined;
}

/** Where to look for the right name: the closest variable, else the table of keys. */
function meantVariable(variable: string): string {
  const meant = closestConfigVariable(variable);
  return meant === undefined
    ? 'the keys are listed in docs/configuration.md, under Keys'
    : `did you mean ${meant}?`;
}
