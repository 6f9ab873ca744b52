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
// Peers a rerun section uses that the full run's head does not list yet get their versions here.
const peers = field('Peers');
const listedPeers = /^- Peers: (.*)$/m.exec(current.head)?.[1] ?? '';
const newPeers = (peers ?? '')
  .split(', ')
  .filter((entry) => entry !== '' && !listedPeers.includes(entry.split(' ')[0]!));
const note = `- Rerun on ${date} (commit ${toolloop}, \`bash bench/run.sh --update\`${load === undefined ? '' : `, load ${load}`}): ${fresh.map((section) => title(section).slice(3)).join(', ')}; the other sections are from the full run above.${newPeers.length > 0 ? ` Peers first used in this rerun: ${newPeers.join(', ')}.` : ''}`;
// An earlier rerun's note keeps the sections this run did not redo; a note left with none goes.
const freshTitles = new Set(fresh.map((section) => title(section).slice(3)));
const NOTE = /^(- Rerun on .*?\): )(.*?)(; the other sections are from the full run above\..*)$/;
const headLines = current.head
  .trimEnd()
  .split('\n')
  .flatMap((line) => {
    if (!line.startsWith('- Rerun on ')) return [line];
    const parts = NOTE.exec(line);
    if (parts === null) return [];
    const kept = parts[2]!.split(', ').filter((name) => !freshTitles.has(name));
    return kept.length === 0 ? [] : [`${parts[1]}${kept.join(', ')}${parts[3]}`];
  });
headLines.push(note);
writeFileSync(resultsUrl, `${headLines.join('\n')}\n\n${sections.join('\n\n')}\n`);
