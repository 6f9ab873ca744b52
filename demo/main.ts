// `npm start`: every scenario `toolloop demo` shows (the list lives in src/demo/run-demo.ts),
// against ScriptedChatModel, or against a real model when the environment names one:
// TOOLLOOP_MODEL=openai-responses:gpt-5-mini (or google:…, anthropic:…), OPENAI_API_KEY or
// OPENAI_BASE_URL (Chat Completions), GEMINI_API_KEY or GOOGLE_API_KEY (Gemini). The
// durable-turn scenario needs PostgreSQL: without DATABASE_URL, the one the tests use is started
// on loopback by scripts/services.sh (installing nothing), and stopped again at the end if this
// run started it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { realModelFromEnvironment, runDemo } from '../src/demo/run-demo.js';

/** Starts the test services when DATABASE_URL is unset; returns the ones it started. */
function startTestServices(): string {
  if (process.env.DATABASE_URL || !existsSync('scripts/services.sh')) return '';
  try {
    const exports = execFileSync('bash', ['scripts/services.sh'], {
      encoding: 'utf8',
      env: { ...process.env, TOOLLOOP_NO_INSTALL: '1' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let started = '';
    for (const [, name, value] of exports.matchAll(/^export (\w+)='?([^'\n]*)'?$/gm)) {
      if (name === 'DATABASE_URL' && value) process.env.DATABASE_URL = value;
      if (name === 'TOOLLOOP_STARTED_SERVICES') started = value ?? '';
    }
    return started;
  } catch {
    return '';
  }
}

const started = startTestServices();
try {
  await runDemo(await realModelFromEnvironment());
} finally {
  if (started) execFileSync('bash', ['scripts/services.sh', 'stop', started], { stdio: 'ignore' });
}
