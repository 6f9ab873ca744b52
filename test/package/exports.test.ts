import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  peerDependencies?: Record<string, string>;
};
const optionalPeers = Object.keys(manifest.peerDependencies ?? {});
const subpaths = Object.keys(manifest.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'toolloop' : `toolloop/${key.slice(2)}`));

/**
 * Packs the built package, installs the tarball into an empty project without any optional peer,
 * and imports every entry point: proves the root loads no peer and the exports map is complete.
 */
describe('the packed package', () => {
  let consumer = '';

  beforeAll(() => {
    if (!existsSync(join(projectRoot, 'dist', 'index.js'))) {
      execFileSync('npm', ['run', 'build', '--silent'], { cwd: projectRoot, stdio: 'pipe' });
    }
    consumer = mkdtempSync(join(tmpdir(), 'toolloop-consumer-'));
    const packOutput = execFileSync('npm', ['pack', '--silent', '--pack-destination', consumer], {
      cwd: projectRoot,
      encoding: 'utf8',
    });
    const tarball = packOutput.trim().split('\n').pop() as string;
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    execFileSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--omit=peer',
        join(consumer, tarball),
      ],
      { cwd: consumer, stdio: 'pipe' },
    );
  }, 180_000);

  afterAll(() => {
    if (consumer) rmSync(consumer, { recursive: true, force: true });
  });

  it('installs without any optional peer', () => {
    for (const peer of optionalPeers) {
      expect(existsSync(join(consumer, 'node_modules', peer)), peer).toBe(false);
    }
  });

  it('ships no test files', () => {
    const listing = execFileSync('find', [join(consumer, 'node_modules', 'toolloop', 'dist')], {
      encoding: 'utf8',
    });
    expect(listing).not.toMatch(/\.test\.(js|d\.ts)/);
  });

  it('loads the query-expansion table only when an index with expansion is used', () => {
    expect(
      existsSync(join(consumer, 'node_modules', 'toolloop', 'lexicon', 'related-words.bin.gz')),
    ).toBe(true);
    // A module hook records every module URL Node loads.
    const log = join(consumer, 'loaded.txt');
    writeFileSync(
      join(consumer, 'hooks.mjs'),
      "import { appendFileSync } from 'node:fs';\n" +
        'export async function load(url, context, nextLoad) {\n' +
        "  appendFileSync(process.env.LOADED_LOG, url + '\\n');\n" +
        '  return nextLoad(url, context);\n}\n',
    );
    writeFileSync(
      join(consumer, 'register.mjs'),
      "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n",
    );
    const loaded = (script: string) => {
      writeFileSync(log, '');
      execFileSync('node', ['--import', './register.mjs', '--input-type=module', '-e', script], {
        cwd: consumer,
        env: { ...process.env, LOADED_LOG: log },
      });
      return readFileSync(log, 'utf8');
    };
    const rootOnly = loaded(
      "const t = await import('toolloop'); new t.ToolSearchToolCallingAdvisor(); new t.LexicalToolIndex({ expansion: true });",
    );
    expect(rootOnly).toContain('/toolloop/dist/index.js');
    expect(rootOnly).not.toContain('related-words');
    const used = loaded(
      "const t = await import('toolloop'); const i = new t.LexicalToolIndex({ expansion: true }); await i.indexTools('s', [{ toolName: 'a', summary: 'b' }]);",
    );
    expect(used).toContain('/toolloop/dist/internal/search-text/related-words.js');
  });

  it.each(subpaths)('imports %s without optional peers', (specifier) => {
    const script = `const m = await import(${JSON.stringify(specifier)}); console.log(Object.keys(m).length);`;
    const output = execFileSync('node', ['--input-type=module', '-e', script], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(Number(output.trim())).toBeGreaterThan(0);
  });
});
