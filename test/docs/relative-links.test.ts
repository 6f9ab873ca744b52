// The README sends readers to docs/*.md, and most read the pages where the README is: on GitHub.
// There a link such as `./tools` is a 404; only `./tools.md` works, and the site (VitePress, clean
// URLs) turns it into `/tools` as well. So every relative link names an existing Markdown file.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { documentationFiles } from './markdown-snippets.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The targets of the Markdown links of a text, code blocks and inline code left out. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1\s*$/gm, '');
  const withoutInlineCode = prose.replace(/`[^`\n]*`/g, '');
  return [...withoutInlineCode.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
}

/** The rendered text of a heading line: no `#`s, code ticks or link targets. */
function headingText(line: string): string {
  return line
    .replace(/^#{1,6}\s+/, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim();
}

/** The anchor GitHub gives a heading (where the README's readers follow the links). */
function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchor the documentation site (VitePress) gives a heading. */
function siteSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();
}

/** The headings of a Markdown text, code blocks left out. */
function headings(markdown: string): string[] {
  const prose = markdown.replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1\s*$/gm, '');
  return prose
    .split('\n')
    .filter((line) => /^#{1,6}\s/.test(line))
    .map(headingText);
}

describe('relative links of the README and docs/', () => {
  const files = documentationFiles(root);

  it('name an existing file (a page by its .md file)', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const target of linkTargets(readFileSync(join(root, file), 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
        checked++;
        const path = target.split('#')[0] ?? '';
        const resolved = join(root, dirname(file), path);
        // `./tools` and `./providers/` are no files: GitHub shows a 404 or a folder listing.
        if (!existsSync(resolved) || !statSync(resolved).isFile())
          broken.push(`${file}: ${target}`);
      }
    }
    expect(checked).toBeGreaterThan(30);
    expect(broken).toEqual([]);
  });

  // `#tsconfig-json` found the heading "tsconfig.json" on the site, but on GitHub, where the
  // README is read, that heading is `#tsconfigjson`: the link opened the page at its top.
  it('name an anchor that the target has on GitHub and on the site alike', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const target of linkTargets(readFileSync(join(root, file), 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || !target.includes('#')) continue;
        const [path = '', anchor = ''] = target.split('#');
        const page = path === '' ? join(root, file) : join(root, dirname(file), path);
        if (!page.endsWith('.md') || !existsSync(page)) continue;
        checked++;
        const texts = headings(readFileSync(page, 'utf8'));
        const onGitHub = texts.map(githubSlug).includes(anchor);
        const onSite = texts.map(siteSlug).includes(anchor);
        if (!onGitHub || !onSite) {
          missing.push(
            `${file}: ${target} (${onGitHub ? '' : 'not on GitHub '}${onSite ? '' : 'not on the site'})`,
          );
        }
      }
    }
    expect(checked).toBeGreaterThan(15);
    expect(missing).toEqual([]);
  });
});
