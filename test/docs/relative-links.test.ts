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
});
