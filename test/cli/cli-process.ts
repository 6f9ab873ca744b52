import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../package/packed-package.js';

/** The built `toolloop` bin (`npm run build`; `npm test` builds before running the tests). */
export const cliPath = join(projectRoot, 'dist', 'cli', 'main.js');

/** Fails loudly when the bin was not built, instead of testing a stale or missing file. */
export function assertCliBuilt(): void {
  if (!existsSync(cliPath)) {
    throw new Error(`${cliPath} is missing: run npm run build (npm test builds first)`);
  }
}

/** The environment of a spawned CLI: this one without provider or config variables. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (
      /^(OPENAI_|ANTHROPIC_|GEMINI_|GOOGLE_API_KEY|GOOGLE_GEMINI_|SPRING_|TOOLLOOP_(MODEL|TOOLS|MEMORY|MCP|CHAT|PROVIDERS|OBSERVABILITY))/.test(
        name,
      )
    )
      continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

/** Runs `toolloop <args>` to the end. */
export function runCli(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {},
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [cliPath, ...args], {
    encoding: 'utf8',
    env: options.env ?? cleanEnv(),
    cwd: options.cwd ?? projectRoot,
    timeout: 60_000,
    ...(options.input === undefined ? {} : { input: options.input }),
  });
}
