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

/**
 * A PATH where redis-server is missing and apt-get only records how it was called, printing
 * `simulation` (a recorded `apt-get install -s` output) when asked to simulate an install.
 */
function pathWithoutRedis(simulation = ''): { path: string; aptLog: string } {
  const bin = join(work, 'bin');
  const aptLog = join(work, 'apt-get.log');
  const simulationFile = join(work, 'apt-simulation.txt');
  if (!existsSync(bin)) {
    mkdirSync(bin);
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      if (!existsSync(dir)) continue;
      for (const name of readdirSync(dir)) {
        if (name === 'redis-server' || name === 'apt-get' || existsSync(join(bin, name))) continue;
        symlinkSync(join(dir, name), join(bin, name));
      }
    }
    writeFileSync(
      join(bin, 'apt-get'),
      `#!/bin/sh
echo "$*" >> '${aptLog}'
[ "$2" = -s ] && cat '${simulationFile}'
exit 0
`,
    );
    chmodSync(join(bin, 'apt-get'), 0o755);
  }
  writeFileSync(aptLog, '');
  writeFileSync(simulationFile, simulation);
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
    '%s installs only the missing package, after a simulated install showed it changes nothing installed',
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
      expect(calls).toEqual([
        'update -qq',
        'install -s --no-upgrade redis-server',
        'install -y -qq --no-upgrade redis-server',
      ]);
    },
    120_000,
  );

  it.runIf(process.getuid?.() === 0)(
    'leaves out a package whose install would upgrade installed ones, and says how to install it',
    () => {
      const upgrading = readFileSync(
        join(projectRoot, 'test', 'scripts', 'fixtures', 'apt-simulate-libkrb5-dev.txt'),
        'utf8',
      );
      const { path, aptLog } = pathWithoutRedis(upgrading);
      const run = services([], { PATH: path });
      services(['stop', (run.started ?? []).join(' ')]);
      expect(run.status, run.stderr).toBe(0);
      expect(readFileSync(aptLog, 'utf8').trim().split('\n')).toEqual([
        'update -qq',
        'install -s --no-upgrade redis-server',
      ]);
      expect(run.stderr).toContain('not installing redis-server (the Redis chat memory tests)');
      expect(run.stderr).toContain('upgrade libkrb5-3 1.20.1-2+deb12u3 -> 1.20.1-2+deb12u5');
      expect(run.stderr).toContain('sudo apt-get install --no-upgrade redis-server');
      expect(run.stdout).not.toContain('REDIS_URL');
      expect(run.stdout).toContain('DATABASE_URL');

      // Under CI it is installed all the same (the CI machine is thrown away after the run).
      const ci = pathWithoutRedis(upgrading);
      const ciRun = services([], { PATH: ci.path, CI: 'true' });
      services(['stop', (ciRun.started ?? []).join(' ')]);
      expect(readFileSync(ci.aptLog, 'utf8').trim().split('\n')).toEqual([
        'update -qq',
        'install -s --no-upgrade redis-server',
        'install -y -qq --no-upgrade redis-server',
      ]);
      expect(ciRun.stderr).toContain('CI: installing redis-server');
    },
    120_000,
  );
});
