import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// scripts/services.sh run for real, on ports of its own: it starts what is not running, reports
// what it started, stops only that, and installs (never upgrades) packages only under CI.

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const script = join(projectRoot, 'scripts', 'services.sh');
const haveRedis = spawnSync('sh', ['-c', 'command -v redis-server']).status === 0;
const havePostgres =
  existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').length > 0;
const work = mkdtempSync(join(tmpdir(), 'toolloop-services-test-'));
// PostgreSQL runs as the postgres user when the tests run as root: it must reach its data folder.
chmodSync(work, 0o755);
// Ports of their own, so the services of a concurrent `npm test` are never touched.
const redisPort = String(20_000 + (process.pid % 10_000));
const pgPort = String(30_000 + (process.pid % 10_000));

function services(args: string[], env: Record<string, string | undefined> = {}) {
  const result = spawnSync('bash', [script, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      CI: undefined,
      TOOLLOOP_SERVICES_DIR: join(work, 'state'),
      TOOLLOOP_REDIS_PORT: redisPort,
      TOOLLOOP_PG_PORT: pgPort,
      ...env,
    },
  });
  const started = /TOOLLOOP_STARTED_SERVICES='([^']*)'/.exec(result.stdout)?.[1];
  return { ...result, started: started?.split(' ').filter(Boolean) };
}

function redisAnswers(): boolean {
  return spawnSync('redis-cli', ['-p', redisPort, 'ping'], { encoding: 'utf8' }).stdout.includes(
    'PONG',
  );
}

/** A PATH where redis-server is missing and apt-get only records how it was called. */
function pathWithoutRedis(): { path: string; aptLog: string } {
  const bin = join(work, 'bin');
  const aptLog = join(work, 'apt-get.log');
  if (!existsSync(bin)) {
    mkdirSync(bin);
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      if (!existsSync(dir)) continue;
      for (const name of readdirSync(dir)) {
        if (name === 'redis-server' || name === 'apt-get' || existsSync(join(bin, name))) continue;
        symlinkSync(join(dir, name), join(bin, name));
      }
    }
    writeFileSync(join(bin, 'apt-get'), `#!/bin/sh\necho "$*" >> '${aptLog}'\n`);
    chmodSync(join(bin, 'apt-get'), 0o755);
  }
  writeFileSync(aptLog, '');
  return { path: bin, aptLog };
}

afterAll(() => {
  services(['stop', 'redis postgres']);
  rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!haveRedis || !havePostgres)('scripts/services.sh', () => {
  it('starts Redis and PostgreSQL, says it started them, and stops exactly those', () => {
    const first = services([]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain(`export REDIS_URL=redis://127.0.0.1:${redisPort}`);
    expect(first.stdout).toContain(`export DATABASE_URL=postgres://postgres@127.0.0.1:${pgPort}/`);
    expect(first.started).toEqual(['redis', 'postgres']);
    expect(redisAnswers()).toBe(true);

    // Already running: used as they are, and a second caller owns nothing to stop.
    const second = services([]);
    expect(second.status, second.stderr).toBe(0);
    expect(second.started).toEqual([]);
    services(['stop', (second.started ?? []).join(' ')]);
    expect(redisAnswers()).toBe(true);

    const stopped = services(['stop', (first.started ?? []).join(' ')]);
    expect(stopped.status, stopped.stderr).toBe(0);
    expect(redisAnswers()).toBe(false);
    const pgBin = /TOOLLOOP_PG_BIN=(\S+)/.exec(first.stdout)?.[1] ?? '';
    const pgReady = spawnSync(join(pgBin, 'pg_isready'), ['-h', '127.0.0.1', '-p', pgPort]);
    expect(pgReady.status).not.toBe(0);
  }, 120_000);

  it('with installing turned off, installs nothing: names the missing package and how to install it', () => {
    const { path, aptLog } = pathWithoutRedis();
    const run = services([], { PATH: path, TOOLLOOP_NO_INSTALL: '1' });
    services(['stop', (run.started ?? []).join(' ')]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('not installed: redis-server');
    expect(run.stderr).toContain('sudo apt-get install --no-upgrade redis-server');
    expect(run.stdout).not.toContain('REDIS_URL');
    expect(run.stdout).toContain('DATABASE_URL');
    expect(readFileSync(aptLog, 'utf8')).toBe('');
  }, 120_000);

  it.each([
    ['on a fresh machine', {}],
    ['under CI', { CI: 'true' }],
  ])(
    '%s installs only the missing package, without upgrading installed ones',
    (_, env) => {
      const { path, aptLog } = pathWithoutRedis();
      const run = services([], { PATH: path, ...env });
      services(['stop', (run.started ?? []).join(' ')]);
      if (process.getuid?.() !== 0) {
        // Without apt-get rights: CI fails, a developer's run reports and skips.
        expect(run.status !== 0).toBe(Object.hasOwn(env, 'CI'));
        return;
      }
      const calls = readFileSync(aptLog, 'utf8').trim().split('\n');
      expect(calls[0]).toBe('update -qq');
      expect(calls[1]).toBe('install -y -qq --no-upgrade redis-server');
    },
    120_000,
  );
});
