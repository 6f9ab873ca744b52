import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts a `redis-server` of the test's own on loopback (its data in `dataDirectory`, extra
 * arguments such as `--appendonly yes` appended), and resolves once it answers PING. Tests that
 * pause, restart or count the commands of a server use one, so no other test shares it.
 */
export async function startRedis(
  port: number,
  dataDirectory: string,
  extraArguments: readonly string[] = [],
): Promise<ChildProcess> {
  const server = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dataDirectory,
      '--save',
      '',
      ...extraArguments,
    ],
    { stdio: 'ignore' },
  );
  const probe = new Redis(`redis://127.0.0.1:${port}`, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      try {
        if (probe.status !== 'ready') await probe.connect();
        if ((await probe.ping()) === 'PONG') return server;
      } catch {
        probe.disconnect();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error('redis-server did not start');
  } finally {
    probe.disconnect();
  }
}
