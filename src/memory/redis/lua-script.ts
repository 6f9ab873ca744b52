import { createHash } from 'node:crypto';
import type { RedisClient } from './redis-client.js';

/** A Lua script with its SHA-1, the name `EVALSHA` runs it by. */
export interface LuaScript {
  readonly text: string;
  readonly sha1: string;
}

/** The script of this text. */
export function luaScript(text: string): LuaScript {
  return { text, sha1: createHash('sha1').update(text).digest('hex') };
}

/**
 * Runs a script by its SHA-1 (`EVALSHA`) when the client can, and by its text (`EVAL`, which also
 * loads it) when the server does not know it (`NOSCRIPT`: its first use, a restart, a
 * `SCRIPT FLUSH`, a fail-over). `EVAL` would send the whole text, and the server hash it, on every
 * call: for the chat memory's 2 KB scripts that was a measurable share of an append. `beforeLoad`
 * runs before that second send and may throw to stop it (an operation that timed out meanwhile
 * sends nothing more).
 */
export async function runLuaScript(
  client: RedisClient,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
  beforeLoad?: () => void,
): Promise<unknown> {
  if (typeof client.evalsha !== 'function') {
    return client.eval(script.text, keys.length, ...keys, ...args);
  }
  try {
    return await client.evalsha(script.sha1, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
    beforeLoad?.();
    return client.eval(script.text, keys.length, ...keys, ...args);
  }
}
