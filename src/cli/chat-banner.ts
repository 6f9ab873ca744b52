import { resolve } from 'node:path';
import { parseModelId } from '../config/chat-model-registry.js';
import type { ToolloopConfig } from '../config/index.js';
import { urlWithoutCredentials } from '../internal/url-without-credentials.js';
import type { ChatModel } from '../model/index.js';

/** What `toolloop chat` knows when it starts, for {@link chatBanner}. */
export interface ChatBannerFacts {
  readonly conversationId: string;
  readonly config: ToolloopConfig;
  readonly chatModel: ChatModel;
  /** The `--script` file, when the scripted model plays the model's part. */
  readonly scriptFile?: string | undefined;
  /** True when the conversation goes to the default SQLite file (nothing chose a store). */
  readonly defaultMemory: boolean;
  /** True when the default SQLite file was replaced by memory because better-sqlite3 is missing. */
  readonly sqliteMissing?: boolean | undefined;
  /** Directory a relative SQLite path is resolved against; default the working directory. */
  readonly cwd?: string | undefined;
}

/**
 * The lines `toolloop chat` starts with: where the conversation is kept, which model it talks to
 * and where (never with a key, a password or a query), and the chat's commands.
 */
export function chatBanner(facts: ChatBannerFacts): string[] {
  return [
    `toolloop chat: conversation "${facts.conversationId}"${whereKept(facts)}`,
    `model: ${describeModel(facts)}`,
    '/tools /history /clear /exit (Ctrl-D leaves too; Ctrl-C stops an answer)',
  ];
}

function whereKept({ config, defaultMemory, sqliteMissing, cwd }: ChatBannerFacts): string {
  const { memory } = config;
  switch (memory.store) {
    case 'none':
      return ' (memory off: nothing is kept).';
    case 'in-memory':
      return sqliteMissing
        ? ', kept in memory until the chat ends (to keep conversations across runs: npm install better-sqlite3).'
        : ', kept in memory until the chat ends.';
    case 'sqlite': {
      const path = resolve(cwd ?? process.cwd(), memory.sqlite.path ?? '');
      return `, kept in ${path}${defaultMemory ? ' (--memory chooses another place, or none)' : ''}.`;
    }
    case 'redis': {
      const url = memory.redis.url ?? `redis://${memory.redis.host}:${memory.redis.port ?? 6379}`;
      return `, kept in Redis at ${urlWithoutCredentials(url) ?? 'the configured server'}.`;
    }
    case 'postgres': {
      const url = memory.postgres.url && urlWithoutCredentials(memory.postgres.url);
      return `, kept in PostgreSQL${url ? ` at ${url}` : ''}.`;
    }
  }
}

function describeModel({ config, chatModel, scriptFile }: ChatBannerFacts): string {
  if (scriptFile !== undefined) return `scripted, playing ${resolve(scriptFile)}`;
  const id = config.model ?? config.chatProvider;
  const parsed = id === undefined ? undefined : parseModelId(id);
  const name = chatModel.defaultOptions?.model ?? parsed?.model ?? 'the provider default';
  const baseUrl = (chatModel as { baseUrl?: unknown }).baseUrl;
  const at = typeof baseUrl === 'string' ? urlWithoutCredentials(baseUrl) : undefined;
  return `${name}${parsed ? ` (${parsed.provider})` : ''}${at ? ` at ${at}` : ''}`;
}
