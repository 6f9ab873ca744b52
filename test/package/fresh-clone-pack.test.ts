import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from './packed-package.js';

// `npm pack` in a fresh clone (no dist/ yet) must build first: the prepack script.

const work = mkdtempSync(join(tmpdir(), 'toolloop-fresh-clone-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The repository's files as a clone has them (tracked and new, not ignored), without dist/. */
function freshClone(): string {
  const clone = join(work, 'clone');
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: projectRoot,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file !== '' && existsSync(join(projectRoot, file)));
  for (const file of files) {
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    cpSync(join(projectRoot, file), join(clone, file));
  }
  // What `npm ci` would install, without installing it again.
  symlinkSync(join(projectRoot, 'node_modules'), join(clone, 'node_modules'), 'dir');
  return clone;
}

describe('npm pack from a fresh clone', () => {
  it('builds the package first, so the tarball has the code', () => {
    const clone = freshClone();
    expect(existsSync(join(clone, 'dist'))).toBe(false);
    const output = execFileSync(
      'npm',
      ['pack', '--json', '--loglevel=error', '--pack-destination', work],
      { cwd: clone, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const [packed] = JSON.parse(output.slice(output.indexOf('['))) as {
      files: { path: string }[];
    }[];
    const paths = packed?.files.map((file) => file.path) ?? [];
    for (const entry of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli/main.js',
      'dist/mcp/index.js',
    ])
      expect(paths).toContain(entry);
    expect(paths.filter((path) => path.startsWith('dist/')).length).toBeGreaterThan(100);
  }, 300_000);
});
