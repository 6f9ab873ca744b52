import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './packed-package.js';
import { publicValues, rootTypeNames } from './public-names.js';

/**
 * The README's "Public API" section lists every public name under its entry point, and every
 * public name is imported from its entry point and used in an example, the demo or a README
 * snippet: a name nobody shows is either missing its documentation or should not be public.
 */

const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

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
  for (const match of readme.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)) {
    const line = readme.slice(0, match.index).split('\n').length;
    found.push({
      where: `README.md:${line}`,
      code: withoutComments(match[1] ?? ''),
      entryOf: (specifier) => (/^toolloop(\/|$)/.test(specifier) ? specifier : undefined),
    });
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

/** The "Public API" section: the names listed under each `### \`entry\`` heading. */
function listedNames(): Map<string, string[]> {
  const start = readme.indexOf('\n## Public API\n');
  if (start === -1) return new Map();
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end).replace(/```[\s\S]*?```/g, '');
  const listed = new Map<string, string[]>();
  for (const part of section.split('\n### ').slice(1)) {
    const heading = part.slice(0, part.indexOf('\n'));
    const entry = /`(toolloop[^`]*)`/.exec(heading)?.[1];
    if (entry === undefined) continue;
    const names = [...part.slice(heading.length).matchAll(/`([^`]+)`/g)]
      .map((match) => match[1] ?? '')
      .filter((name) => identifier.test(name));
    listed.set(entry, [...(listed.get(entry) ?? []), ...names]);
  }
  return listed;
}

const entries = Object.keys(publicValues);
const publicNamesOf = (entry: string): string[] => [
  ...(publicValues[entry] ?? []),
  ...(entry === 'toolloop' ? rootTypeNames : []),
];

describe('the README "Public API" section', () => {
  const listed = listedNames();

  it('exists', () => {
    expect(readme.includes('\n## Public API\n'), 'a "## Public API" section').toBe(true);
  });

  it.each(entries)('lists exactly the public names of %s', (entry) => {
    expect([...new Set(listed.get(entry) ?? [])].sort()).toEqual(publicNamesOf(entry).sort());
  });

  it('lists no entry point the package does not have', () => {
    expect([...listed.keys()].filter((entry) => !entries.includes(entry))).toEqual([]);
  });
});

describe('every public name is shown in use', () => {
  const parsed = samples().map((sample) => ({ sample, ...importsOf(sample) }));

  it('finds the README snippets, the examples and the demo', () => {
    const where = parsed.map(({ sample }) => sample.where);
    expect(where.filter((name) => name.startsWith('README.md')).length).toBeGreaterThan(20);
    expect(where).toContain('examples/quick-start.ts');
    expect(where).toContain('demo/main.ts');
  });

  it.each(entries)(
    'each name of %s is imported from it and used by an example, the demo or a README snippet',
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
