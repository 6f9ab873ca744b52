import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

// The benchmarks are not part of the test suite (they take minutes and measure, never assert
// timings); this runs each bench/*.ts script once with tiny counts (BENCH_SMOKE=1) so they never
// rot: each must compile, finish, pass its own self-checks and print its markdown section.

const root = fileURLToPath(new URL('..', import.meta.url));
const bench = join(root, 'bench');
const peersInstalled = existsSync(join(bench, 'node_modules', '.package-lock.json'));
/** Scripts run two at a time (the machine's cores); the rest wait their turn. */
const PARALLEL_SCRIPTS = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PARALLEL_SCRIPTS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** Runs a compiled benchmark script with tiny counts; resolves with its exit status and output. */
function runScript(
  name: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', join(bench, 'dist', `${name}.js`)], {
      cwd: root,
      env: { ...process.env, BENCH_SMOKE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

const scripts = readdirSync(bench)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -'.ts'.length))
  .sort();

describe.skipIf(!peersInstalled && !process.env.CI)(
  'benchmarks, smoke run (needs `npm ci --prefix bench`; skipped when the peers are not installed outside CI)',
  () => {
    beforeAll(() => {
      expect(peersInstalled, 'bench/node_modules is missing: run npm ci --prefix bench').toBe(true);
      const compiled = spawnSync(
        process.execPath,
        [
          join(bench, 'node_modules', 'typescript', 'bin', 'tsc'),
          '-p',
          join(bench, 'tsconfig.json'),
        ],
        { cwd: root, encoding: 'utf8' },
      );
      expect(compiled.status, compiled.stdout + compiled.stderr).toBe(0);
    }, 180_000);

    it('finds the four core benchmarks', () => {
      expect(scripts).toEqual(
        expect.arrayContaining([
          'loop-overhead',
          'streaming',
          'scaling',
          'memory-per-conversation',
          'allocation-profile',
        ]),
      );
    });

    it('bench/run.sh --update replaces only the rerun sections and notes them in the head', () => {
      const directory = mkdtempSync(join(tmpdir(), 'toolloop-bench-update-'));
      try {
        const results = join(directory, 'RESULTS.md');
        const fresh = join(directory, 'fresh.md');
        writeFileSync(
          results,
          '# Benchmark results\n\n- Date: 2026-01-01 00:00 UTC\n- toolloop 0.1.0 (commit aaaaaaa)\n\n## Loop overhead\n\nold loop\n\n## Scaling\n\nold scaling\n',
        );
        writeFileSync(
          fresh,
          '# Benchmark results\n\n- Date: 2026-02-02 12:00 UTC\n- toolloop 0.1.0 (commit bbbbbbb)\n\n## Loop overhead\n\nnew loop\n\n## Allocation profile\n\nnew profile\n',
        );
        const run = spawnSync(
          process.execPath,
          [join(bench, 'dist', 'lib', 'update-results.js'), fresh, results],
          { encoding: 'utf8' },
        );
        expect(run.status, run.stderr).toBe(0);
        const updated = readFileSync(results, 'utf8');
        expect(updated).toContain('- Date: 2026-01-01 00:00 UTC');
        expect(updated).toContain(
          '- Rerun on 2026-02-02 12:00 UTC (commit bbbbbbb, `bash bench/run.sh --update`): Loop overhead, Allocation profile;',
        );
        expect(updated).toContain('## Loop overhead\n\nnew loop');
        expect(updated).not.toContain('old loop');
        expect(updated).toContain('## Scaling\n\nold scaling');
        expect(updated).toContain('## Allocation profile\n\nnew profile');
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    });

    it('bench/run.sh --update keeps an earlier rerun note for the sections it did not redo', () => {
      const directory = mkdtempSync(join(tmpdir(), 'toolloop-bench-update-'));
      try {
        const results = join(directory, 'RESULTS.md');
        const fresh = join(directory, 'fresh.md');
        writeFileSync(
          results,
          '# Benchmark results\n\n- Date: 2026-01-01 00:00 UTC\n- toolloop 0.1.0 (commit aaaaaaa)\n- Rerun on 2026-01-10 00:00 UTC (commit ccccccc, `bash bench/run.sh --update`): Loop overhead, Scaling; the other sections are from the full run above.\n- Rerun on 2026-01-11 00:00 UTC (commit ddddddd, `bash bench/run.sh --update`): Streaming; the other sections are from the full run above.\n\n## Loop overhead\n\nold loop\n\n## Streaming\n\nold streaming\n\n## Scaling\n\nold scaling\n',
        );
        writeFileSync(
          fresh,
          '# Benchmark results\n\n- Date: 2026-02-02 12:00 UTC\n- toolloop 0.1.0 (commit bbbbbbb)\n\n## Loop overhead\n\nnew loop\n\n## Streaming\n\nnew streaming\n',
        );
        const run = spawnSync(
          process.execPath,
          [join(bench, 'dist', 'lib', 'update-results.js'), fresh, results],
          { encoding: 'utf8' },
        );
        expect(run.status, run.stderr).toBe(0);
        const updated = readFileSync(results, 'utf8');
        expect(updated).toContain(
          '- Rerun on 2026-01-10 00:00 UTC (commit ccccccc, `bash bench/run.sh --update`): Scaling; the other sections are from the full run above.',
        );
        expect(updated).not.toContain('commit ddddddd');
        expect(updated).toContain(
          '(commit bbbbbbb, `bash bench/run.sh --update`): Loop overhead, Streaming;',
        );
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    });

    for (const name of scripts) {
      it.concurrent(`${name} runs with tiny counts and prints its section`, async () => {
        const run = await inTurn(() => runScript(name));
        expect(run.status, run.stderr).toBe(0);
        expect(run.stdout).toMatch(/^## \S/);
        expect(run.stdout.match(/^## /gm)).toHaveLength(1);
        // A section holds numbers: at least one markdown table.
        expect(run.stdout).toMatch(/^\|.*\|\n\|(\s*:?-+:?\s*\|)+$/m);
      }, 400_000);
    }
  },
);
