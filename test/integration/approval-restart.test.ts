import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ChatClient,
  CONVERSATION_ID,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  pendingApprovalOf,
  ToolCallingAdvisor,
  tool,
} from '../../src/index.js';
import { SqliteChatMemoryRepository } from '../../src/memory/sqlite/index.js';
import { ScriptedChatModel, toolCallResponse } from '../../src/testing/index.js';
// @ts-expect-error: a plain JavaScript fixture shared with the child process
import { transferTool } from './fixtures/approval-bank-tool.mjs';

const run = promisify(execFile);
const resumer = fileURLToPath(new URL('./fixtures/approval-resumer.mjs', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../../dist/index.js', import.meta.url)));
const KEY = 'restart-test-signing-key-0123456789abcdef';
const directory = mkdtempSync(join(tmpdir(), 'toolloop-approval-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

if (!built && !process.env.CI) {
  console.warn('[toolloop] dist/ is missing: skipping the approval restart test (npm run build)');
}

/**
 * The first process: a turn with memory inside the loop pauses on a transfer; the pending state
 * goes into a SQLite table, and the process's client is dropped.
 */
async function pauseAndStore(file: string, conversationId: string): Promise<void> {
  const database = new Database(file);
  database.exec(
    'CREATE TABLE IF NOT EXISTS pending_approvals (conversation_id TEXT PRIMARY KEY, state TEXT NOT NULL);' +
      'CREATE TABLE IF NOT EXISTS transfers (recipient TEXT NOT NULL, amount REAL NOT NULL);',
  );
  const model = new ScriptedChatModel([
    toolCallResponse([{ id: 't1', name: 'transfer', arguments: { to: 'bob', amount: 100 } }]),
  ]);
  const client = ChatClient.create(model, {
    tools: [transferTool(tool, database)],
    advisors: [
      new MessageChatMemoryAdvisor({
        chatMemory: new MessageWindowChatMemory({
          repository: new SqliteChatMemoryRepository({ database }),
        }),
        order: ToolCallingAdvisor.DEFAULT_ORDER + 1,
      }),
      (a) => a.param(CONVERSATION_ID, conversationId),
    ],
    approval: { signingKey: KEY },
  });
  const pending = pendingApprovalOf(await client.prompt('Pay bob 100').call());
  expect(pending?.toolCalls.map((call) => call.name)).toEqual(['transfer']);
  database
    .prepare('INSERT INTO pending_approvals (conversation_id, state) VALUES (?, ?)')
    .run(conversationId, JSON.stringify(pending));
  database.close();
}

describe.runIf(built || process.env.CI)(
  'approval after a restart (SQLite, a fresh process)',
  () => {
    it.each(['call', 'stream'])(
      'resumes in a new process in %s mode: the call runs once and memory holds the whole turn',
      async (mode) => {
        const file = join(directory, `bank-${mode}.db`);
        const conversationId = `c-${mode}`;
        await pauseAndStore(file, conversationId);

        const before = new Database(file, { readonly: true });
        expect(before.prepare('SELECT COUNT(*) AS n FROM transfers').get()).toEqual({ n: 0 });
        before.close();

        const { stdout } = await run(process.execPath, [resumer, file, conversationId, KEY, mode], {
          timeout: 60_000,
        });
        const result = JSON.parse(stdout.trim()) as { answer: string; sent: string[] };
        expect(result.answer).toBe('Done: "sent 100 to bob"');
        expect(result.sent).toEqual(['user', 'assistant', 'tool']);

        const after = new Database(file);
        expect(after.prepare('SELECT recipient, amount FROM transfers').all()).toEqual([
          { recipient: 'bob', amount: 100 },
        ]);
        expect(after.prepare('SELECT COUNT(*) AS n FROM pending_approvals').get()).toEqual({
          n: 0,
        });
        const memory = new MessageWindowChatMemory({
          repository: new SqliteChatMemoryRepository({
            database: after as never,
            synchronous: null,
          }),
        });
        expect((await memory.get(conversationId)).map((message) => message.role)).toEqual([
          'user',
          'assistant',
          'tool',
          'assistant',
        ]);
        after.close();

        // A second resume of the same state finds nothing: it was taken out of the table.
        await expect(
          run(process.execPath, [resumer, file, conversationId, KEY, mode], { timeout: 60_000 }),
        ).rejects.toThrow(`no pending approval for ${conversationId}`);
      },
      90_000,
    );
  },
);
