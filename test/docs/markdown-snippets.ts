import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** How a TypeScript snippet of the documentation is checked. */
export type SnippetMode = 'compile' | 'run' | 'fragment';

/** One fenced TypeScript block of a Markdown file. */
export interface Snippet {
  /** The Markdown file, relative to the project root. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** `compile` for ```ts, `run` for ```ts run, `fragment` for ```ts fragment. */
  readonly mode: SnippetMode;
  readonly code: string;
}

/** The Markdown files whose snippets are checked: README.md and docs/ (the generated API excluded). */
export function documentationFiles(root: string): string[] {
  const files = [join(root, 'README.md')];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'api', '.vitepress'].includes(entry.name)) walk(path);
      } else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(root, 'docs'));
  return files.map((file) => relative(root, file)).sort();
}

const TYPESCRIPT = new Set(['ts', 'typescript', 'mts']);

/**
 * The TypeScript blocks of a Markdown text. A block is fenced by three or more backticks or tildes;
 * its info string names the language and, for TypeScript, an optional mode (`run`, `fragment`).
 * Throws on an unknown mode, so a typo never turns a snippet into one that is not checked.
 */
export function extractSnippets(file: string, markdown: string): Snippet[] {
  const snippets: Snippet[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^`]*)$/.exec(lines[index] ?? '');
    if (!open) continue;
    const fence = open[1] ?? '```';
    const [language = '', ...tags] = (open[2] ?? '').trim().split(/\s+/);
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length; end++) {
      const line = lines[end] ?? '';
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1]?.[0] === fence[0] && (close[1]?.length ?? 0) >= fence.length) break;
      body.push(line);
    }
    if (TYPESCRIPT.has(language.toLowerCase())) {
      const mode = tags.length === 0 ? 'compile' : tags.join(' ');
      if (mode !== 'compile' && mode !== 'run' && mode !== 'fragment') {
        throw new Error(
          `${file}:${index + 1}: unknown snippet tag "${mode}" (use run or fragment)`,
        );
      }
      snippets.push({ file, line: index + 1, mode, code: `${body.join('\n')}\n` });
    }
    index = end;
  }
  return snippets;
}

/** Every TypeScript snippet of README.md and docs/. */
export function documentationSnippets(root: string): Snippet[] {
  return documentationFiles(root).flatMap((file) =>
    extractSnippets(file, readFileSync(join(root, file), 'utf8')),
  );
}
