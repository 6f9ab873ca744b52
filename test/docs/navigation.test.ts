// Every page of the guide is reachable from the site's sidebar: a page written in docs/ but never
// wired into docs/.vitepress/config.mts is found by search only, and a newcomer never sees it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const docs = fileURLToPath(new URL('../../docs', import.meta.url));
/** Pages that are not guide pages: the home page and TypeDoc's input for the API overview. */
const NOT_IN_SIDEBAR = new Set(['index', 'typedoc-readme']);

/** The guide's pages as sidebar links name them (`tools`, `providers/`, `providers/google`). */
function guidePages(dir = docs): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || ['node_modules', 'api'].includes(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return guidePages(path);
    if (!entry.name.endsWith('.md')) return [];
    const page = relative(docs, path).split(sep).join('/').replace(/\.md$/, '');
    if (NOT_IN_SIDEBAR.has(page)) return [];
    return [page.endsWith('/index') ? page.slice(0, -'index'.length) : page];
  });
}

describe('the site navigation', () => {
  it('links every page of docs/ from the sidebar', () => {
    const config = readFileSync(join(docs, '.vitepress', 'config.mts'), 'utf8');
    const pages = guidePages();
    expect(pages.length).toBeGreaterThan(15);
    const missing = pages.filter(
      (page) => !config.includes(`link: '/${page}'`) && !config.includes(`', '${page}')`),
    );
    expect(missing).toEqual([]);
  });
});
