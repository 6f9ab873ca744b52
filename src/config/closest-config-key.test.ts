import { describe, expect, it } from 'vitest';
import { closestConfigKey, closestConfigVariable } from './closest-config-key.js';
import { ConfigError } from './config-error.js';
import { loadConfig } from './load-config.js';

describe('closestConfigKey', () => {
  it('finds the key a typing mistake meant', () => {
    expect(closestConfigKey('spring.ai.tools.limits.max-total-tool-call'.split('.'))).toBe(
      'spring.ai.tools.limits.max-total-tool-calls',
    );
    expect(closestConfigKey('toolloop.memory.redis-url'.split('.'))).toBe(
      'toolloop.memory.redis.url',
    );
    expect(closestConfigKey(['spring', 'ai', 'tools', 'limits', 'maxTotalToolCall'])).toBe(
      'spring.ai.tools.limits.max-total-tool-calls',
    );
  });

  it('keeps the name a placeholder took', () => {
    expect(closestConfigKey('spring.ai.tools.limits.max-call-per-tool.weather'.split('.'))).toBe(
      'spring.ai.tools.limits.max-calls-per-tool.weather',
    );
  });

  it('suggests nothing for a key far from every property', () => {
    expect(closestConfigKey('toolloop.something-else-entirely'.split('.'))).toBeUndefined();
  });

  // A misspelt key was reported as "unknown property" alone, leaving the reader to search the
  // table of keys for the right spelling.
  it('is named in the configuration error', async () => {
    const error = await loadConfig({
      texts: [
        {
          text: 'spring.ai.tools.limits.max-total-tool-call=20\n',
          format: 'properties',
          source: 'application.properties',
        },
      ],
      env: false,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(
      'spring.ai.tools.limits.max-total-tool-call: unknown property (did you mean spring.ai.tools.limits.max-total-tool-calls?)',
    );
  });

  // The environment's report pointed at "the configuration reference in the README", which the
  // README does not have.
  it('names the variable a misspelt one meant, or where the keys are listed', async () => {
    expect(closestConfigVariable('TOOLLOOP_TOOLS_MAX_CONCURENCY')).toBe(
      'TOOLLOOP_TOOLS_MAX_CONCURRENCY',
    );
    const error = await loadConfig({
      env: { TOOLLOOP_TOOLS_MAX_CONCURENCY: '4', TOOLLOOP_TOOLS_NOTHING_LIKE_ANY_KEY: '1' },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((problem) => problem.problem);
    expect(problems).toEqual([
      'names no toolloop property (did you mean TOOLLOOP_TOOLS_MAX_CONCURRENCY?)',
      'names no toolloop property (the keys are listed in docs/configuration.md, under Keys)',
    ]);
  });
});
