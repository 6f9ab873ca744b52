import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../package/packed-package.js';

/**
 * Writes a tools module as a user would (plain JavaScript importing the built package) into a
 * fresh directory, and returns the directory and the module's path. Its tools: `getWeather`
 * (`city`) and `weather` (`location`, the tool of the recorded xAI transcript), both answering
 * from a fixed table, and `failing`, which always throws.
 */
export function writeToolsModule(): { dir: string; module: string } {
  const dir = mkdtempSync(join(tmpdir(), 'toolloop-cli-'));
  const module = join(dir, 'my-tools.mjs');
  const entry = pathToFileURL(join(projectRoot, 'dist', 'index.js')).href;
  writeFileSync(
    module,
    `import { tool } from ${JSON.stringify(entry)};
const skies = { Paris: 'sunny', 'San Francisco': 'foggy' };
export const getWeather = tool({
  name: 'getWeather',
  description: 'Current weather of a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => ({ city, temperature: 21, sky: skies[city] ?? 'unknown' }),
});
export const weather = tool({
  name: 'weather',
  description: 'Weather at a location',
  inputSchema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  execute: ({ location }) => ({ location, sky: skies[location] ?? 'unknown' }),
});
export const failing = tool({
  name: 'failing',
  description: 'Always fails',
  inputSchema: { type: 'object', properties: {} },
  execute: () => { throw new Error('the backend is down'); },
});
export const notATool = 42;
`,
  );
  return { dir, module };
}
