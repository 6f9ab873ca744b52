import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// scripts/apt-install.sh decides whether a missing Debian package may be installed for the tests:
// only when the simulated install changes no installed package, or under CI. The decision is fed
// real `apt-get install -s` outputs (test/scripts/fixtures); the install itself goes to a
// stand-in apt-get that records its calls, since a real one would change this machine.

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const library = join(projectRoot, 'scripts', 'apt-install.sh');
const fixture = (name: string) => join(projectRoot, 'test', 'scripts', 'fixtures', name);
const work = mkdtempSync(join(tmpdir(), 'toolloop-apt-install-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function bash(script: string, options: { input?: string; env?: Record<string, string> } = {}) {
  return spawnSync('bash', ['-c', `source '${library}'; ${script}`], {
    encoding: 'utf8',
    input: options.input ?? '',
    env: { ...process.env, CI: '', ...options.env },
  });
}

function changes(fixtureName: string): string[] {
  const run = bash('apt_changes', { input: readFileSync(fixture(fixtureName), 'utf8') });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\n').filter(Boolean);
}

describe('apt_changes', () => {
  it('finds nothing to change when the install only adds packages', () => {
    expect(changes('apt-simulate-hello.txt')).toEqual([]);
  });

  it('lists every installed package the install would upgrade, with both versions', () => {
    const upgrades = changes('apt-simulate-libkrb5-dev.txt');
    expect(upgrades).toHaveLength(10);
    expect(upgrades).toContain('upgrade krb5-locales 1.20.1-2+deb12u3 -> 1.20.1-2+deb12u5');
    // A line with trigger notes after the versions.
    expect(upgrades).toContain('upgrade libext2fs2 1.47.0-2 -> 1.47.0-2+b2');
    expect(upgrades.every((line) => line.startsWith('upgrade '))).toBe(true);
  });

  it('lists every installed package the install would remove', () => {
    const removals = changes('apt-simulate-sysvinit-core.txt');
    expect(removals).toHaveLength(21);
    expect(removals).toContain('remove chromium 156.0.8078.114-1~deb12u1');
    expect(removals).toContain('remove libgtk-3-0 3.24.38-2~deb12u3');
  });
});

describe('apt_install_missing', () => {
  /** A PATH whose apt-get prints `simulation` for `install -s` and records every other call. */
  function aptPath(simulation: string, simulationStatus = 0): { path: string; log: string } {
    const dir = mkdtempSync(join(work, 'bin-'));
    const log = join(dir, 'calls.log');
    writeFileSync(log, '');
    writeFileSync(join(dir, 'simulation.txt'), simulation);
    mkdirSync(join(dir, 'bin'));
    writeFileSync(
      join(dir, 'bin', 'apt-get'),
      '#!/bin/sh\n' +
        `if [ "$1" = install ] && [ "$2" = -s ]; then cat '${join(dir, 'simulation.txt')}'; exit ${simulationStatus}; fi\n` +
        `echo "$*" >> '${log}'\n`,
    );
    chmodSync(join(dir, 'bin', 'apt-get'), 0o755);
    return { path: `${join(dir, 'bin')}${delimiter}${process.env.PATH ?? ''}`, log };
  }
  const install = (path: string, env: Record<string, string> = {}) =>
    bash("apt_install_missing 'the browser test' chromium", { env: { PATH: path, ...env } });

  it('installs a package whose install only adds packages', () => {
    const apt = aptPath(readFileSync(fixture('apt-simulate-hello.txt'), 'utf8'));
    const run = install(apt.path);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(apt.log, 'utf8')).toBe('install -y -qq --no-upgrade chromium\n');
    expect(run.stderr).toContain('no installed package changes');
  });

  it('leaves out a package that would upgrade installed ones, naming them and the command', () => {
    const apt = aptPath(readFileSync(fixture('apt-simulate-libkrb5-dev.txt'), 'utf8'));
    const run = install(apt.path);
    expect(run.status).toBe(1);
    expect(readFileSync(apt.log, 'utf8')).toBe('');
    expect(run.stderr).toContain(
      'not installing chromium (the browser test): it would also change installed packages:',
    );
    expect(run.stderr).toContain('upgrade libkrb5-3 1.20.1-2+deb12u3 -> 1.20.1-2+deb12u5');
    expect(run.stderr).toContain('sudo apt-get install --no-upgrade chromium');
  });

  it('leaves out a package that would remove installed ones', () => {
    const apt = aptPath(readFileSync(fixture('apt-simulate-sysvinit-core.txt'), 'utf8'));
    const run = install(apt.path);
    expect(run.status).toBe(1);
    expect(readFileSync(apt.log, 'utf8')).toBe('');
    expect(run.stderr).toContain('remove systemd-sysv');
  });

  it('under CI installs it all the same, listing what it changes', () => {
    const apt = aptPath(readFileSync(fixture('apt-simulate-libkrb5-dev.txt'), 'utf8'));
    const run = install(apt.path, { CI: 'true' });
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(apt.log, 'utf8')).toBe('install -y -qq --no-upgrade chromium\n');
    expect(run.stderr).toContain('CI: installing chromium (the browser test), which changes');
    expect(run.stderr).toContain('upgrade logsave 1.47.0-2 -> 1.47.0-2+b2');
  });

  it('reports a package apt cannot install, installing nothing', () => {
    const apt = aptPath('Reading package lists...\nE: Unable to locate package chromium\n', 100);
    const run = install(apt.path);
    expect(run.status).toBe(1);
    expect(readFileSync(apt.log, 'utf8')).toBe('');
    expect(run.stderr).toContain('cannot install chromium (the browser test): E: Unable to locate');
  });
});
