// The scenarios of `toolloop demo` (and the first part of `npm start`): the reference article's
// round trips against ScriptedChatModel, or against a real OpenAI-compatible model when
// OPENAI_API_KEY or OPENAI_BASE_URL is set.
import type { ChatModel } from '../index.js';
import { runMemoryDemo } from './memory-demo.js';
import { runPlainRoundTripDemo } from './plain-round-trip-demo.js';
import { runReturnDirectDemo } from './return-direct-demo.js';
import { runToolContextDemo } from './tool-context-demo.js';
import { runToolSearchDemo } from './tool-search-demo.js';

/**
 * The real model the environment configures (`OPENAI_API_KEY` or `OPENAI_BASE_URL`, and
 * `OPENAI_MODEL`), or `undefined` for the scripted one.
 */
export async function realModelFromEnvironment(
  env: Readonly<Record<string, string | undefined>> = process.env,
  log: (line: string) => void = console.log,
): Promise<ChatModel | undefined> {
  const { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: model } = env;
  if (!apiKey && !baseUrl) {
    log('Using ScriptedChatModel (set OPENAI_API_KEY or OPENAI_BASE_URL for a real model)\n');
    return undefined;
  }
  const { OpenAiChatModel } = await import('../openai/index.js');
  log(`Using the real model ${model ?? '(default)'} at ${baseUrl ?? 'api.openai.com'}\n`);
  // The model reads the same three variables itself.
  return new OpenAiChatModel({ env });
}

/** Runs the plain round trip, returnDirect, ToolContext, tool search and memory scenarios. */
export async function runDemo(
  real: ChatModel | undefined,
  log: (line: string) => void = console.log,
): Promise<void> {
  await runPlainRoundTripDemo(real, log);
  await runReturnDirectDemo(real, log, real ? () => new Date() : undefined);
  await runToolContextDemo(real, log);
  await runToolSearchDemo(real, log);
  await runMemoryDemo(real, log);
}
