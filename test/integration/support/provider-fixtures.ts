import { existsSync, readFileSync } from 'node:fs';

/** The recorded provider wire data, read from `../shared/data` beside the project root. */
export const PROVIDER_FIXTURES = new URL(
  '../../../../shared/data/provider-fixtures/',
  import.meta.url,
);

/** Whether the recorded provider fixtures are present on this machine. */
export const providerFixturesPresent = existsSync(new URL('README.md', PROVIDER_FIXTURES));

/**
 * The skip rule of data-dependent tests: absent data skips locally (with a message) and fails
 * under `CI=true`.
 */
export function skipWithoutProviderFixtures(): boolean {
  if (providerFixturesPresent) return false;
  if (process.env.CI === 'true') {
    throw new Error(`provider fixtures missing at ${PROVIDER_FIXTURES.pathname} (required in CI)`);
  }
  console.warn(
    `skipping provider replay tests: fixtures not found at ${PROVIDER_FIXTURES.pathname}`,
  );
  return true;
}

/** The bytes of one fixture file, e.g. `openai-chat-completions/x.bin.txt`. */
export function fixtureBytes(path: string): Buffer {
  return readFileSync(new URL(path, PROVIDER_FIXTURES));
}

/** The text of one fixture file. */
export function fixtureText(path: string): string {
  return fixtureBytes(path).toString('utf8');
}

/**
 * A VAI `*.chunks.txt` file (one JSON payload per line, SSE framing stripped by its recorder)
 * framed again as the provider sends it: OpenAI-style `data:` events ending with `[DONE]`, or
 * Anthropic-style `event: <type>` + `data:` events.
 */
export function frameChunksAsSse(text: string, style: 'openai' | 'anthropic'): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const events = lines.map((line) => {
    if (style === 'openai') return `data: ${line}\n\n`;
    const type = (JSON.parse(line) as { type: string }).type;
    return `event: ${type}\ndata: ${line}\n\n`;
  });
  return events.join('') + (style === 'openai' ? 'data: [DONE]\n\n' : '');
}
