#!/usr/bin/env node
// npm run docs:build: builds the documentation site into docs/.vitepress/dist. The site has its own
// toolchain (docs/package.json, pinned by docs/package-lock.json: VitePress needs a Vite other than
// the one the tests pin), installed with `npm ci --prefix docs` when missing. Then TypeDoc writes
// the API reference from the JSDoc into docs/api/, and VitePress builds every page. Nothing but
// the npm registry is reached. `npm run docs:dev` serves the pages with live reload instead.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const docs = join(root, 'docs');

/** Runs a command in `cwd` with inherited output; exits with its status when it fails. */
function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`docs:build: ${command} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

if (!existsSync(join(docs, 'node_modules', '.package-lock.json'))) {
  console.log('docs:build: installing the site toolchain (npm ci --prefix docs)');
  run('npm', ['ci', '--prefix', 'docs', '--no-audit', '--no-fund', '--loglevel=error'], root);
}
rmSync(join(docs, 'api'), { recursive: true, force: true });
run(
  process.execPath,
  [
    join(docs, 'node_modules', 'typedoc', 'bin', 'typedoc'),
    '--options',
    'typedoc.config.mjs',
    '--logLevel',
    'Warn',
  ],
  docs,
);
const dev = process.argv.includes('--dev');
run(
  process.execPath,
  [join(docs, 'node_modules', 'vitepress', 'bin', 'vitepress.js'), dev ? 'dev' : 'build', '.'],
  docs,
);
if (!dev) console.log('docs:build: the site is in docs/.vitepress/dist');
