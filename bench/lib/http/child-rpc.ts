import { type ChildProcess, fork } from 'node:child_process';
import type { Server } from 'node:http';

/**
 * Request / answer over a forked child's IPC channel, for the processes of the end-to-end
 * benchmark: the parent asks (`cpu`, `memory`, `stats`, …), the child answers from its handlers.
 */

interface RequestMessage {
  id: number;
  type: string;
  payload?: unknown;
}

interface AnswerMessage {
  id: number;
  result?: unknown;
  error?: string;
}

/** Child side: answers the parent's requests with `handlers`, then says it is ready with `ready`. */
export function serveParent(
  handlers: Record<string, (payload: unknown) => unknown>,
  ready: Record<string, unknown>,
): void {
  process.on('message', async (message: RequestMessage) => {
    const handler = handlers[message.type];
    try {
      if (handler === undefined) throw new Error(`no handler for ${message.type}`);
      const result = await handler(message.payload);
      process.send?.({ id: message.id, result } satisfies AnswerMessage);
    } catch (error) {
      process.send?.({
        id: message.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies AnswerMessage);
    }
  });
  // A parent that died (a failed self-check) must not leave its servers running.
  process.on('disconnect', () => process.exit(0));
  process.send?.({ id: 0, result: ready } satisfies AnswerMessage);
}

/** Parent side: one forked child and its requests. */
export class ChildProcessClient {
  readonly child: ChildProcess;
  readonly ready: Promise<Record<string, unknown>>;
  #next = 1;
  readonly #waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  constructor(modulePath: URL, env: Record<string, string> = {}) {
    this.child = fork(modulePath, [], {
      // BENCH_CHILD_EXEC_ARGV adds node flags, e.g. `--cpu-prof` to profile the measured server.
      execArgv: ['--expose-gc', ...(process.env.BENCH_CHILD_EXEC_ARGV?.split(' ') ?? [])],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let readyResolve!: (v: Record<string, unknown>) => void;
    let readyReject!: (e: Error) => void;
    this.ready = new Promise((resolve, reject) => {
      readyResolve = resolve;
      readyReject = reject;
    });
    this.child.on('message', (message: AnswerMessage) => {
      if (message.id === 0) return readyResolve(message.result as Record<string, unknown>);
      const waiting = this.#waiting.get(message.id);
      if (waiting === undefined) return;
      this.#waiting.delete(message.id);
      if (message.error !== undefined) waiting.reject(new Error(message.error));
      else waiting.resolve(message.result);
    });
    this.child.on('exit', (code, signal) => {
      const error = new Error(`${modulePath.pathname} exited (${code ?? signal})`);
      readyReject(error);
      for (const waiting of this.#waiting.values()) waiting.reject(error);
      this.#waiting.clear();
    });
  }

  /** Sends a request; resolves with the child's answer. */
  call<T>(type: string, payload?: unknown): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, type, payload } satisfies RequestMessage);
    });
  }

  /** Ends the child and waits for it to exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill();
    await exited;
  }
}

/**
 * Child side of a benchmark HTTP server: tunes `server` for thousands of keep-alive clients, has
 * it listen on a free loopback port, then serves the parent with `handlers`, its ready message
 * giving the port.
 */
export function listenForLoad(
  server: Server,
  handlers: Record<string, (payload: unknown) => unknown>,
): void {
  // No idle timeout: a keep-alive socket reused as the server times it out resets the request.
  server.keepAliveTimeout = 0;
  server.headersTimeout = 120_000;
  server.requestTimeout = 0;
  server.maxRequestsPerSocket = 0;
  // A deep accept queue: thousands of clients connect within a second.
  server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
    const address = server.address();
    serveParent(handlers, {
      port: typeof address === 'object' && address !== null ? address.port : 0,
    });
  });
}
