import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A PostgreSQL server of the test's own, which the test may stop and start again. */
export interface PrivatePostgres {
  /** A URL of its `postgres` database (user `postgres`, no password, loopback). */
  readonly url: string;
  /** Starts the server and waits until it takes connections. */
  start(): void;
  /** Stops the server at once (`immediate`: connections cut, as in a crash or lost network). */
  stop(): void;
  /** Stops it and removes its data. */
  remove(): void;
}

function binDirectory(): string {
  const versions = readdirSync('/usr/lib/postgresql').sort(
    (left, right) => Number(left) - Number(right),
  );
  const newest = versions.at(-1);
  if (newest === undefined)
    throw new Error('PostgreSQL is not installed (bash scripts/services.sh installs it)');
  return join('/usr/lib/postgresql', newest, 'bin');
}

/**
 * Makes a PostgreSQL cluster in a temporary directory, listening on `port` on loopback only (the
 * shared test server is never stopped: other tests use it). As root, the cluster runs as the
 * `postgres` user, as PostgreSQL requires.
 */
export function privatePostgres(port: number): PrivatePostgres {
  const bin = binDirectory();
  const directory = mkdtempSync(join(tmpdir(), 'toolloop-pg-'));
  const data = join(directory, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) => {
    const line = [join(bin, command), ...args]
      .map((part) => `'${part.replace(/'/g, "'\\''")}'`)
      .join(' ');
    execFileSync(
      asRoot ? 'su' : 'bash',
      asRoot ? ['postgres', '-s', '/bin/bash', '-c', line] : ['-c', line],
      {
        stdio: 'ignore',
      },
    );
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chmodSync(directory, 0o755);
    chownSync(directory, uid, gid);
  }
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${directory} -c fsync=off`;
  let running = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start() {
      run('pg_ctl', ['-D', data, '-o', options, '-l', join(directory, 'log'), '-w', 'start']);
      running = true;
    },
    stop() {
      if (!running) return;
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      running = false;
    },
    remove() {
      try {
        this.stop();
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}
