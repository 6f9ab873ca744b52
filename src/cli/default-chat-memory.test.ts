import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { ScriptedChatModel } from '../testing/index.js';
import { chatBanner } from './chat-banner.js';
import { defaultChatMemory, defaultChatMemoryPath } from './default-chat-memory.js';

describe('defaultChatMemory', () => {
  const env = { XDG_DATA_HOME: '/data' };

  it('keeps conversations in the SQLite file when better-sqlite3 is installed', async () => {
    const chosen = await defaultChatMemory(env, async () => true);
    expect(chosen).toEqual({
      memory: { store: 'sqlite', sqlite: { path: join('/data', 'toolloop', 'chat.sqlite') } },
      sqliteMissing: false,
    });
    expect(defaultChatMemoryPath(env)).toBe(join('/data', 'toolloop', 'chat.sqlite'));
  });

  // A first `toolloop chat --model scripted ...` in a fresh project failed with "toolloop.memory.store=sqlite
  // needs the package better-sqlite3", a setting the user never wrote.
  it('falls back to memory, and the banner says how to keep conversations, without better-sqlite3', async () => {
    const chosen = await defaultChatMemory(env, async () => false);
    expect(chosen).toEqual({ memory: { store: 'in-memory' }, sqliteMissing: true });
    const config = await loadConfig({ files: [], overrides: { memory: chosen.memory } });
    const [first] = chatBanner({
      conversationId: 'default',
      config,
      chatModel: new ScriptedChatModel([]),
      defaultMemory: true,
      sqliteMissing: true,
    });
    expect(first).toBe(
      'toolloop chat: conversation "default", kept in memory until the chat ends (to keep conversations across runs: npm install better-sqlite3).',
    );
  });

  it('finds the better-sqlite3 this repository installs', async () => {
    expect((await defaultChatMemory(env)).sqliteMissing).toBe(false);
  });
});
