import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (where package.json is). */
export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Packs the built package at `packageRoot` (toolloop by default, or one of packages/) with
 * `npm pack` into `directory` and returns the tarball's path. Builds only when dist is missing:
 * npm test builds first, and building again here (the prepack script, hence --ignore-scripts)
 * would race the other package tests reading dist.
 */
export function packPackage(directory: string, packageRoot = projectRoot): string {
  if (!existsSync(join(packageRoot, 'dist', 'index.js'))) {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: packageRoot, stdio: 'pipe' });
  }
  const output = execFileSync(
    'npm',
    ['pack', '--silent', '--ignore-scripts', '--pack-destination', directory],
    {
      cwd: packageRoot,
      encoding: 'utf8',
    },
  );
  return join(directory, output.trim().split('\n').pop() as string);
}

/**
 * Makes `consumer` an ESM project of its own and installs `packages` into it (the tarball, a
 * peer …) from the npm cache where possible; `extraArgs` are passed to `npm install`.
 */
export function installIntoConsumer(
  consumer: string,
  packages: string[],
  extraArgs: string[] = [],
): void {
  if (!existsSync(join(consumer, 'package.json'))) {
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
  }
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', ...extraArgs, ...packages],
    { cwd: consumer, stdio: 'pipe' },
  );
}
