// TypeDoc options for the API reference (npm run docs:build): one Markdown page per entry point of
// the package, read from package.json's "exports" so a new subpath is documented without an edit
// here, written to docs/api/ for the site.
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const entryPoints = Object.keys(manifest.exports)
  .filter((subpath) => subpath !== './package.json')
  .map((subpath) => (subpath === '.' ? '../src/index.ts' : `../src/${subpath.slice(2)}/index.ts`));

/** @type {Partial<import('typedoc').TypeDocOptions & import('typedoc-plugin-markdown').PluginOptions>} */
export default {
  entryPoints,
  tsconfig: '../tsconfig.build.json',
  out: 'api',
  plugin: ['typedoc-plugin-markdown', 'typedoc-vitepress-theme', './typedoc-entry-names.mjs'],
  readme: 'typedoc-readme.md',
  mergeReadme: true,
  outputFileStrategy: 'modules',
  entryFileName: 'index',
  excludeInternal: true,
  excludePrivate: true,
  excludeProtected: false,
  hideGenerator: true,
  disableSources: true,
  sanitizeComments: true,
  useHTMLAnchors: true,
  sort: ['kind', 'alphabetical'],
  validation: { notExported: false, invalidLink: false, unusedMergeModuleWith: false },
  docsRoot: '.',
  sidebar: { pretty: true },
};
