import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ToolloopConfigInput } from '../config/index.js';
import { isMissingPackage } from '../internal/import-needing-peer.js';

/** Where `toolloop chat` keeps conversations when neither `--memory` nor a config file chose. */
export interface DefaultChatMemory {
  /** The memory settings the chat runs with. */
  readonly memory: NonNullable<ToolloopConfigInput['memory']>;
  /** True when the SQLite file was wanted but `better-sqlite3` is not installed. */
  readonly sqliteMissing: boolean;
}

/** The SQLite file the chat keeps conversations in when nothing else is chosen. */
export function defaultChatMemoryPath(env: NodeJS.ProcessEnv = process.env): string {
  const dataHome = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(dataHome, 'toolloop', 'chat.sqlite');
}

/**
 * The chat's default memory: the SQLite file of {@link defaultChatMemoryPath}, or, when
 * `better-sqlite3` is not installed, memory that lasts until the chat ends (the banner says so and
 * how to keep conversations), so that a first try of `toolloop chat` does not fail on a driver it
 * never asked for. `sqliteInstalled` is for tests.
 */
export async function defaultChatMemory(
  env: NodeJS.ProcessEnv = process.env,
  sqliteInstalled: () => Promise<boolean> = isSqliteInstalled,
): Promise<DefaultChatMemory> {
  if (await sqliteInstalled()) {
    return {
      memory: { store: 'sqlite', sqlite: { path: defaultChatMemoryPath(env) } },
      sqliteMissing: false,
    };
  }
  return { memory: { store: 'in-memory' }, sqliteMissing: true };
}

async function isSqliteInstalled(): Promise<boolean> {
  try {
    await import('better-sqlite3');
    return true;
  } catch (error) {
    // A driver that is there but fails to load is reported where the store opens it.
    return !isMissingPackage(error, 'better-sqlite3');
  }
}
