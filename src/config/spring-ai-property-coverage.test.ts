import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';

// Every Spring AI property the tool-calling documents name (the reference page's property tables
// and examples, and the behaviour notes read from Spring AI's source) must be accepted in every
// format and change the configuration. The keys were read from those documents into
// test/fixtures/spring-ai-property-keys.txt (its header says how); `<name>` (a map key) becomes
// `lookup`.
function documentedKeys(): string[] {
  const text = readFileSync(
    new URL('../../test/fixtures/spring-ai-property-keys.txt', import.meta.url),
    'utf8',
  );
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((key) => key.replace(/<name>/g, 'lookup'))
    .sort();
}

/** Properties a key is only valid with (a stdio connection's args need its command). */
const COMPANIONS: Record<string, string> = {
  'spring.ai.mcp.client.stdio.connections.my-server.args':
    'spring.ai.mcp.client.stdio.connections.my-server.command',
};

/** A value other than the default for each documented key. */
const SAMPLES: Record<string, string> = {
  'spring.ai.tools.throw-exception-on-error': 'true',
  'spring.ai.tools.resolution.fallback.enabled': 'true',
  'spring.ai.tools.observations.include-content': 'true',
  'spring.ai.tools.limits.max-calls-per-tool-default': '5',
  'spring.ai.tools.limits.max-calls-per-tool.lookup': '-1',
  'spring.ai.tools.limits.excluded-tools': 'ping,pong',
  'spring.ai.tools.limits.max-total-tool-calls': '12',
  'spring.ai.tools.limits.on-limit-exceeded': 'RETURN_ERROR_RESPONSE',
  'spring.ai.chat.client.tool-calling.enabled': 'false',
  'spring.ai.chat.client.tool-calling.advisor-order': '500',
  'spring.ai.chat.client.tool-search-advisor.enabled': 'true',
  'spring.ai.chat.client.tool-search-advisor.tool-index-type': 'lucene',
  'spring.ai.chat.client.tool-search-advisor.max-results': '5',
  'spring.ai.chat.client.tool-search-advisor.session-id-key-name': 'my_session',
  'spring.ai.chat.client.tool-search-advisor.reference-tool-name-accumulation': 'false',
  'spring.ai.chat.client.tool-search-advisor.system-message-suffix': 'Search before you call.',
  'spring.ai.chat.client.tool-search-advisor.advisor-order': '400',
  'spring.ai.chat.client.tool-search-advisor.eviction.lru-max-sessions': '10',
  'spring.ai.chat.client.tool-search-advisor.eviction.ttl': 'PT5M',
  'spring.ai.chat.client.tool-search-advisor.lucene.min-score-threshold': '0.5',
  'spring.ai.mcp.client.stdio.connections.my-server.command': 'npx',
  'spring.ai.mcp.client.stdio.connections.my-server.args':
    '-y,@modelcontextprotocol/server-everything',
  'spring.ai.mcp.client.toolcallback.enabled': 'false',
  'spring.ai.mcp.client.type': 'ASYNC',
};

/** `{ a: { b: value } }` for `a.b`; a comma list becomes an array. */
function nested(key: string, value: string): Record<string, unknown> {
  const leaf: unknown = value.includes(',') ? value.split(',') : value;
  return key
    .split('.')
    .reverse()
    .reduce<unknown>((inner, segment) => ({ [segment]: inner }), leaf) as Record<string, unknown>;
}

function mergeDeep(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...a };
  for (const [name, value] of Object.entries(b)) {
    const existing = merged[name];
    merged[name] =
      typeof existing === 'object' && existing !== null && !Array.isArray(existing)
        ? mergeDeep(existing as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return merged;
}

function yaml(value: unknown, indent = ''): string {
  if (Array.isArray(value))
    return value.map((item) => `\n${indent}- ${JSON.stringify(item)}`).join('');
  if (typeof value !== 'object' || value === null) return ` ${JSON.stringify(value)}`;
  return Object.entries(value)
    .map(([name, inner]) => `\n${indent}${name}:${yaml(inner, `${indent}  `)}`)
    .join('');
}

describe('the Spring AI properties of the documents', () => {
  const keys = documentedKeys();

  it('are read from the documents (the list is not empty or truncated)', () => {
    expect(keys).toContain('spring.ai.tools.observations.include-content');
    expect(keys).toContain('spring.ai.chat.client.tool-search-advisor.lucene.min-score-threshold');
    expect(keys).toContain('spring.ai.tools.limits.on-limit-exceeded');
    expect(keys.length).toBeGreaterThanOrEqual(Object.keys(SAMPLES).length);
  });

  it.each(keys)('%s is accepted from .properties, YAML, JSON and the environment', async (key) => {
    const sample = SAMPLES[key];
    if (sample === undefined) throw new Error(`no sample value for ${key}: add one to SAMPLES`);
    const companion = COMPANIONS[key];
    const entries = [[key, sample] as const];
    if (companion !== undefined) entries.push([companion, SAMPLES[companion]!]);
    const text = (format: 'yaml' | 'json') => {
      const merged = entries.map(([k, v]) => nested(k, v)).reduce(mergeDeep, {});
      return format === 'json' ? JSON.stringify(merged) : `${yaml(merged).trimStart()}\n`;
    };
    const fromProperties = await loadConfig({
      texts: [
        {
          text: entries.map(([k, v]) => `${k}=${v}\n`).join(''),
          format: 'properties',
          source: 'application.properties',
        },
      ],
      env: false,
    });
    const withCompanionOnly = await loadConfig({
      texts: companion
        ? [{ text: `${companion}=${SAMPLES[companion]}`, format: 'properties', source: 'c' }]
        : [],
      env: false,
    });
    expect(JSON.stringify(fromProperties)).not.toBe(JSON.stringify(withCompanionOnly));
    const fromYaml = await loadConfig({
      texts: [{ text: text('yaml'), format: 'yaml', source: 'application.yaml' }],
      env: false,
    });
    expect(fromYaml).toEqual(fromProperties);
    const fromJson = await loadConfig({
      texts: [{ text: text('json'), format: 'json', source: 'toolloop.json' }],
      env: false,
    });
    expect(fromJson).toEqual(fromProperties);
    const variables = Object.fromEntries(
      entries.map(([k, v]) => [k.replace(/[.-]/g, '_').toUpperCase(), v]),
    );
    const fromEnvironment = await loadConfig({ env: variables });
    expect(fromEnvironment).toEqual(fromProperties);
  });
});
