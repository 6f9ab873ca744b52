import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installIntoConsumer, packPackage, projectRoot } from './packed-package.js';

// The opt-in word tables: packages/word-vectors, published as @toolloop/word-vectors. Packed like
// a release, installed next to the packed toolloop in an empty project, and used from there.

const packageDir = join(projectRoot, 'packages', 'word-vectors');

describe('@toolloop/word-vectors, packed and installed beside toolloop', () => {
  let workDir = '';
  let files: string[] = [];

  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'toolloop-word-vectors-'));
    const core = packPackage(workDir);
    const tables = packPackage(workDir, packageDir);
    files = execFileSync('tar', ['tzf', tables], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((file) => file.replace(/^package\//, ''));
    expect(statSync(tables).size).toBeGreaterThan(8_000_000);
    installIntoConsumer(workDir, [core, tables], ['--omit=peer']);
  }, 240_000);

  afterAll(() => {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('ships its tables with their licences, its NOTICE and no tests', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/index.d.ts',
        'data/related-words.bin.gz',
        'data/word-vectors.bin.gz',
        'data/LICENSE-WordNet.txt',
        'data/LICENSE-wink-embeddings-GloVe.txt',
        'LICENSE',
        'NOTICE',
        'README.md',
      ]),
    );
    expect(files.filter((file) => /\.test\.|^src\//.test(file))).toEqual([]);
    const notice = readFileSync(join(packageDir, 'NOTICE'), 'utf8');
    expect(notice).toContain('WordNet 3.1');
    expect(notice).toContain('GloVe');
  });

  it('plugs into the installed toolloop: expansion and word vectors find a tool in other words', () => {
    const script =
      "const { LexicalToolIndex } = await import('toolloop');" +
      "const { relatedWordsExpansion, WordVectorToolIndex } = await import('@toolloop/word-vectors');" +
      "const tools = [['find_provider', 'Discover a therapist near the user'], ['pay_vendor_bill', 'Pay an outstanding bill of a vendor'], ['lookup_pto_balance', 'Look up the PTO balance of an employee'], ['restart_service', 'Restart a service in a cluster']].map(([toolName, summary]) => ({ toolName, summary }));" +
      'const expanded = new LexicalToolIndex({ queryExpansion: await relatedWordsExpansion() });' +
      "expanded.indexTools('s', tools.slice(1));" +
      "const vectors = new WordVectorToolIndex();await vectors.indexTools('s', tools);" +
      "const first = async (index, query) => (await index.search({ sessionId: 's', query })).toolReferences[0]?.toolName;" +
      "console.log(JSON.stringify([await first(expanded, 'wire money to a supplier'), await first(vectors, 'I need a psychologist')]));";
    const output = execFileSync('node', ['--input-type=module', '-e', script], {
      cwd: workDir,
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual(['pay_vendor_bill', 'find_provider']);
  });
});
