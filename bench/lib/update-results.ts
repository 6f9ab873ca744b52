import { readFileSync, writeFileSync } from 'node:fs';

/**
 * `bash bench/run.sh --update <script>...`: replaces the sections those scripts printed (the file
 * in argv[2]: this run's header, then its `## ` sections) in bench/RESULTS.md, leaves the other
 * sections as the last full run wrote them, and notes in the head which sections come from this
 * run, with its date and commit (argv[3] names another results file, for the tests). Ratios stay comparable within a section: each section is
 * measured in one run.
 */

const sectionsFile = process.argv[2];
if (sectionsFile === undefined) {
  throw new Error('usage: update-results <sections.md> [results.md, default bench/RESULTS.md]');
}
const resultsUrl = process.argv[3] ?? new URL('../../RESULTS.md', import.meta.url);

/** Splits markdown into the part before the first `## ` heading and its `## ` sections. */
function split(markdown: string): { head: string; sections: string[] } {
  const parts = markdown.split(/^(?=## )/m);
  const head = parts[0]?.startsWith('## ') ? '' : (parts.shift() ?? '');
  return { head, sections: parts.map((part) => part.trimEnd()) };
}

const title = (section: string) => section.slice(0, section.indexOf('\n')).trim();

const current = split(readFileSync(resultsUrl, 'utf8'));
const run = split(readFileSync(sectionsFile, 'utf8'));
const fresh = run.sections;
const sections = [...current.sections];
for (const section of fresh) {
  const at = sections.findIndex((existing) => title(existing) === title(section));
  if (at === -1) sections.push(section);
  else sections[at] = section;
}

const newHeader = run.head;
const field = (name: string) => new RegExp(`^- ${name}: (.*)$`, 'm').exec(newHeader)?.[1];
const date = field('Date') ?? 'unknown date';
const toolloop = /^- toolloop .*\(commit (\w+)\)$/m.exec(newHeader)?.[1] ?? 'unknown';
const load = field('Load');
const note = `- Rerun on ${date} (commit ${toolloop}, \`bash bench/run.sh --update\`${load === undefined ? '' : `, load ${load}`}): ${fresh.map((section) => title(section).slice(3)).join(', ')}; the other sections are from the full run above.`;
const rerunNow = new Set(fresh.map((section) => title(section).slice(3)));
// Earlier reruns keep their note for the sections this run did not replace.
const headLines = current.head
  .trimEnd()
  .split('\n')
  .flatMap((line) => (line.startsWith('- Rerun on ') ? olderRerun(line, rerunNow) : [line]));
headLines.push(note);
writeFileSync(resultsUrl, `${headLines.join('\n')}\n\n${sections.join('\n\n')}\n`);

/**
 * An earlier rerun's note without the sections rerun now (none left: the note goes).
 */
function olderRerun(line: string, rerunNow: ReadonlySet<string>): string[] {
  const match = /^(- Rerun on .*?\)): (.*); the other sections are from the full run above\.$/.exec(
    line,
  );
  if (match === null) return [line];
  const kept = (match[2] as string).split(', ').filter((name) => !rerunNow.has(name));
  return kept.length === 0
    ? []
    : [`${match[1]}: ${kept.join(', ')}; the other sections are from the full run above.`];
}
