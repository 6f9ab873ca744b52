import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './packed-package.js';
import { publicValues, rootTypeNames } from './public-names.js';

/**
 * Every public name carries documentation (a JSDoc comment in the published declarations, which
 * the generated API reference shows), and every public name is imported from its entry point and
 * used in an example, the demo or a snippet of the README or the docs: a name nobody shows is
 * either missing its documentation or should not be public.
 */

/** The Markdown files a user reads: the README and every page of the docs site (not the generated API). */
function markdownFiles(): string[] {
  const files = [join(projectRoot, 'README.md')];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'api')
        continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(projectRoot, 'docs'));
  return files;
}

/** One piece of code a user reads: a README snippet, an example file or a demo file. */
interface CodeSample {
  where: string;
  code: string;
  /** Maps an import specifier as written in this sample to the package entry point it means. */
  entryOf: (specifier: string) => string | undefined;
}

function withoutComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** In an example or the demo, `../src/index.js` is `toolloop` and `../src/x/index.js` is `toolloop/x`. */
function repositoryEntry(specifier: string): string | undefined {
  const match = /^\.\.\/src\/(?:(.+)\/)?index\.js$/.exec(specifier);
  if (!match) return undefined;
  return match[1] === undefined ? 'toolloop' : `toolloop/${match[1]}`;
}

/**
 * In the packaged demo (`src/demo/`), `../index.js` is `toolloop`, `../x/index.js` is `toolloop/x`
 * when that entry point exists, and otherwise a folder the root entry re-exports.
 */
function packagedDemoEntry(specifier: string): string | undefined {
  const match = /^\.\.\/(?:(.+)\/)?index\.js$/.exec(specifier);
  if (!match) return undefined;
  const subpath = `toolloop/${match[1]}`;
  return match[1] !== undefined && subpath in publicValues ? subpath : 'toolloop';
}

function samples(): CodeSample[] {
  const found: CodeSample[] = [];
  for (const file of markdownFiles()) {
    const markdown = readFileSync(file, 'utf8');
    for (const match of markdown.matchAll(/```(?:ts|typescript)[^\n]*\n([\s\S]*?)```/g)) {
      const line = markdown.slice(0, match.index).split('\n').length;
      found.push({
        where: `${relative(projectRoot, file)}:${line}`,
        code: withoutComments(match[1] ?? ''),
        entryOf: (specifier) => (/^toolloop(\/|$)/.test(specifier) ? specifier : undefined),
      });
    }
  }
  for (const folder of ['examples', 'demo']) {
    for (const file of readdirSync(join(projectRoot, folder))) {
      if (!file.endsWith('.ts')) continue;
      found.push({
        where: `${folder}/${file}`,
        code: withoutComments(readFileSync(join(projectRoot, folder, file), 'utf8')),
        entryOf: repositoryEntry,
      });
    }
  }
  for (const file of readdirSync(join(projectRoot, 'src', 'demo'))) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    found.push({
      where: `src/demo/${file}`,
      code: withoutComments(readFileSync(join(projectRoot, 'src', 'demo', file), 'utf8')),
      entryOf: packagedDemoEntry,
    });
  }
  return found;
}

/** The names a sample imports, per entry point, and the sample's code without its imports. */
function importsOf(sample: CodeSample): { imported: Map<string, Set<string>>; body: string } {
  const imported = new Map<string, Set<string>>();
  const statement = /import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"];?/g;
  for (const match of sample.code.matchAll(statement)) {
    const entry = sample.entryOf(match[2] ?? '');
    if (entry === undefined) continue;
    const names = imported.get(entry) ?? new Set<string>();
    for (const part of (match[1] ?? '').split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0];
      if (name) names.add(name);
    }
    imported.set(entry, names);
  }
  return { imported, body: sample.code.replace(statement, '') };
}

const entries = Object.keys(publicValues);
const publicNamesOf = (entry: string): string[] => [
  ...(publicValues[entry] ?? []),
  ...(entry === 'toolloop' ? rootTypeNames : []),
];

/** The built declaration file of an entry point (`toolloop/x` is `dist/x/index.d.ts`). */
function declarationFileOf(entry: string): string {
  const subpath = entry === 'toolloop' ? '' : `${entry.slice('toolloop/'.length)}/`;
  return join(projectRoot, 'dist', subpath, 'index.d.ts');
}

describe('the public names are documented', () => {
  const program = ts.createProgram(entries.map(declarationFileOf), {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();

  it.each(entries)('every public name of %s has a JSDoc comment', (entry) => {
    const source = program.getSourceFile(declarationFileOf(entry));
    expect(source, `${declarationFileOf(entry)} (npm run build)`).toBeDefined();
    const moduleSymbol = checker.getSymbolAtLocation(source as ts.SourceFile);
    const exported = new Map(
      checker.getExportsOfModule(moduleSymbol as ts.Symbol).map((symbol) => [symbol.name, symbol]),
    );
    const undocumented = publicNamesOf(entry).filter((name) => {
      const symbol = exported.get(name);
      if (symbol === undefined) return true;
      const target =
        symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return ts.displayPartsToString(target.getDocumentationComment(checker)).trim() === '';
    });
    expect(undocumented).toEqual([]);
  });
});

describe('every public name is shown in use', () => {
  const parsed = samples().map((sample) => ({ sample, ...importsOf(sample) }));

  it('finds the README and docs snippets, the examples and the demo', () => {
    const where = parsed.map(({ sample }) => sample.where);
    expect(where.filter((name) => name.startsWith('README.md')).length).toBeGreaterThan(0);
    expect(where.filter((name) => name.startsWith('docs/')).length).toBeGreaterThan(40);
    expect(where).toContain('examples/quick-start.ts');
    expect(where).toContain('demo/main.ts');
  });

  it.each(entries)(
    'each name of %s is imported from it and used by an example, the demo or a docs snippet',
    (entry) => {
      const unused = publicNamesOf(entry).filter(
        (name) =>
          !parsed.some(
            ({ imported, body }) =>
              imported.get(entry)?.has(name) && new RegExp(`(?<![\\w$.])${name}\\b`).test(body),
          ),
      );
      expect(unused).toEqual([]);
    },
  );
});
