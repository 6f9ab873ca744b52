import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MemoryError } from '../../src/errors/index.js';
import { SqliteChatMemoryRepository } from '../../src/memory/sqlite/index.js';
import type { Message } from '../../src/messages/index.js';

// better-sqlite3 is synchronous: while another process holds the write lock, SQLite's busy
// handler sleeps inside the call, and the whole event loop with it (better-sqlite3's default is
// 5 s). The repository must wait for the lock without blocking the loop, for at most
// busyTimeoutMs, then fail with a MemoryError that leaves the conversation unchanged.

const holder = fileURLToPath(new URL('./fixtures/sqlite-lock-holder.mjs', import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'toolloop-sqlite-busy-'));
const databases: Database.Database[] = [];
const children: ChildProcess[] = [];
let files = 0;
const TURN: Message[] = [{ role: 'user', text: 'Hi' }];
/** A generous bound: the loop may stall for scheduling, never for the lock (held 1.2 s or more). */
const MAX_STALL_MS = 250;

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
afterAll(() => {
  for (const database of databases) database.close();
  rmSync(directory, { recursive: true, force: true });
});

function repositoryOn(file: string, options: { busyTimeoutMs?: number } = {}) {
  const database = new Database(file);
  databases.push(database);
  const repository = new SqliteChatMemoryRepository({
    database,
    synchronous: 'NORMAL',
    ...options,
  });
  repository.initialize();
  return repository;
}

/** Starts a process that holds the write lock for `holdMs`; resolves once it holds it. */
async function holdWriteLock(file: string, holdMs: number): Promise<{ released: Promise<void> }> {
  const child = spawn(process.execPath, [holder, file, String(holdMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let output = '';
  let onLocked: () => void = () => {};
  let onReleased: () => void = () => {};
  const locked = new Promise<void>((resolve) => {
    onLocked = resolve;
  });
  const released = new Promise<void>((resolve) => {
    onReleased = resolve;
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes('locked')) onLocked();
    if (output.includes('released')) onReleased();
  });
  await locked;
  return { released };
}

/** The longest gap between ticks of a 5 ms interval while `work` runs. */
async function longestStall<T>(
  work: () => Promise<T>,
): Promise<{ stall: number; result: PromiseSettledResult<T> }> {
  let last = performance.now();
  let stall = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 5);
  try {
    const [result] = await Promise.allSettled([work()]);
    stall = Math.max(stall, performance.now() - last);
    return { stall, result: result as PromiseSettledResult<T> };
  } finally {
    clearInterval(ticker);
  }
}

describe('SQLite while another process holds the write lock', () => {
  it('an append waits for the lock without blocking the event loop, then lands', async () => {
    const file = join(directory, `busy-${++files}.db`);
    const repository = repositoryOn(file, { busyTimeoutMs: 5_000 });
    const { released } = await holdWriteLock(file, 1_200);
    const started = performance.now();
    const { stall, result } = await longestStall(() => repository.append('c', TURN));
    expect(result.status).toBe('fulfilled');
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(stall).toBeLessThan(MAX_STALL_MS);
    await released;
    expect(await repository.findByConversationId('c')).toEqual(TURN);
  }, 30_000);

  it('gives up after busyTimeoutMs with a MemoryError; the conversation is unchanged', async () => {
    const file = join(directory, `busy-${++files}.db`);
    const repository = repositoryOn(file, { busyTimeoutMs: 300 });
    await repository.append('c', TURN);
    const { released } = await holdWriteLock(file, 2_000);
    const started = performance.now();
    const { stall, result } = await longestStall(() =>
      repository.append('c', [{ role: 'user', text: 'lost?' }]),
    );
    const waited = performance.now() - started;
    expect(result.status).toBe('rejected');
    const error = (result as PromiseRejectedResult).reason as MemoryError;
    expect(error).toBeInstanceOf(MemoryError);
    expect(error.outcome).toBe('unchanged');
    expect(error.message).toMatch(/locked by another connection.*300 ms/);
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(1_500);
    expect(stall).toBeLessThan(MAX_STALL_MS);
    await released;
    expect(await repository.findByConversationId('c')).toEqual(TURN);
  }, 30_000);

  it('applies a documented default below better-sqlite3 own 5 s', () => {
    expect(SqliteChatMemoryRepository.DEFAULT_BUSY_TIMEOUT_MS).toBeLessThan(5_000);
    const repository = repositoryOn(join(directory, `busy-${++files}.db`));
    expect(repository.busyTimeoutMs).toBe(SqliteChatMemoryRepository.DEFAULT_BUSY_TIMEOUT_MS);
  });

  it('leaves the connection busy timeout of the caller as it was', async () => {
    const file = join(directory, `busy-${++files}.db`);
    const database = new Database(file, { timeout: 1_234 });
    databases.push(database);
    const repository = new SqliteChatMemoryRepository({ database, busyTimeoutMs: 100 });
    await repository.append('c', TURN);
    await repository.findByConversationId('c');
    expect(database.pragma('busy_timeout', { simple: true })).toBe(1_234);
  });
});
