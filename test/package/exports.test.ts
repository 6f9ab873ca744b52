import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installIntoConsumer, packPackage, projectRoot } from './packed-package.js';

const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  peerDependencies?: Record<string, string>;
};
const optionalPeers = Object.keys(manifest.peerDependencies ?? {});
const allSubpaths = Object.keys(manifest.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'toolloop' : `toolloop/${key.slice(2)}`));
/** Entry points that import their optional peer at load time (the MCP SDK). */
const mcpSubpaths = ['toolloop/mcp', 'toolloop/mcp/server'];
const subpaths = allSubpaths.filter((specifier) => !mcpSubpaths.includes(specifier));
const mcpSdk = '@modelcontextprotocol/sdk';
const mcpSdkVersion = JSON.parse(
  readFileSync(join(projectRoot, 'node_modules', mcpSdk, 'package.json'), 'utf8'),
) as { version: string };

/** Every runtime name each MCP entry point exports: adding one is a deliberate decision. */
const mcpPublicNames: Record<string, string[]> = {
  'toolloop/mcp': [
    'McpClient',
    'McpConnectionError',
    'McpLimitError',
    'McpProtocolError',
    'McpToolCallback',
    'McpToolCallbackProvider',
    'mcpToolResultText',
    'sanitizeToolName',
  ],
  'toolloop/mcp/server': [
    'McpToolServer',
    'isMcpToolResult',
    'mcpExchange',
    'mcpTool',
    'mcpToolResult',
  ],
};

function importNames(cwd: string, specifier: string): string[] {
  const script = `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(m).sort()));`;
  const output = execFileSync('node', ['--input-type=module', '-e', script], {
    cwd,
    encoding: 'utf8',
  });
  return JSON.parse(output) as string[];
}

/**
 * Packs the built package, installs the tarball into an empty project without any optional peer,
 * and imports every entry point: proves the root loads no peer and the exports map is complete.
 */
describe('the packed package', () => {
  let consumer = '';

  beforeAll(() => {
    consumer = mkdtempSync(join(tmpdir(), 'toolloop-consumer-'));
    installIntoConsumer(consumer, [packPackage(consumer)], ['--omit=peer']);
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

  it('loads the query-expansion table and the word vectors only when an index using them is used', () => {
    expect(
      existsSync(join(consumer, 'node_modules', 'toolloop', 'lexicon', 'related-words.bin.gz')),
    ).toBe(true);
    expect(
      existsSync(join(consumer, 'node_modules', 'toolloop', 'lexicon', 'word-vectors.bin.gz')),
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
      "const t = await import('toolloop'); new t.ToolSearchToolCallingAdvisor(); new t.LexicalToolIndex({ expansion: true, wordVectors: true });",
    );
    expect(rootOnly).toContain('/toolloop/dist/index.js');
    expect(rootOnly).not.toContain('related-words');
    expect(rootOnly).not.toMatch(/word-vector/);
    const used = loaded(
      "const t = await import('toolloop'); const i = new t.LexicalToolIndex({ expansion: true }); await i.indexTools('s', [{ toolName: 'a', summary: 'b' }]);",
    );
    expect(used).toContain('/toolloop/dist/internal/search-text/related-words.js');
    expect(used).not.toMatch(/word-vector/);
    const withVectors = loaded(
      "const t = await import('toolloop'); const i = new t.LexicalToolIndex({ wordVectors: true }); await i.indexTools('s', [{ toolName: 'a', summary: 'b' }]);",
    );
    expect(withVectors).toContain('/toolloop/dist/internal/search-text/word-vectors.js');
    expect(withVectors).not.toContain('related-words');
  });

  it.each(subpaths)('imports %s without optional peers', (specifier) => {
    expect(importNames(consumer, specifier).length).toBeGreaterThan(0);
  });

  it.each(mcpSubpaths)('%s without the MCP SDK fails naming the missing peer', (specifier) => {
    expect(() => importNames(consumer, specifier)).toThrow(mcpSdk);
  });

  it('imports the MCP entry points, with exactly their public names, once the SDK is installed', () => {
    installIntoConsumer(consumer, [`${mcpSdk}@${mcpSdkVersion.version}`], ['--no-save']);
    for (const specifier of mcpSubpaths) {
      expect(importNames(consumer, specifier), specifier).toEqual(
        [...(mcpPublicNames[specifier] ?? [])].sort(),
      );
    }
  }, 180_000);
});
