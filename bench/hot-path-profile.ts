import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, fmt, progress, table } from './lib/harness.js';

/**
 * Where toolloop's time goes: a V8 CPU profile (`node --cpu-prof`) of the
 * loop-overhead conversation and of the streaming conversation through the ChatClient, in a child
 * process, keeping only the samples taken after the warm-up, reduced to the functions with the most self time. It explains the
 * ratios above and shows where removing work would pay.
 */

const CALL_CONVERSATIONS = count(6000, 10);
const STREAM_CONVERSATIONS = count(2000, 4);
const TOP = 14;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
}

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

function location(url: string, line: number): string {
  if (url === '') return '';
  let path = url.startsWith('file://') ? fileURLToPath(url) : url;
  if (path.startsWith(projectRoot)) path = path.slice(projectRoot.length);
  path = path.replace(/^.*node_modules\//, '');
  return `${path}:${line + 1}`;
}

function label(node: ProfileNode): string {
  const name = node.callFrame.functionName || '(anonymous)';
  const where = location(node.callFrame.url, node.callFrame.lineNumber);
  return where === '' ? name : `${name} (${where})`;
}

/** Self-time share per function, and inclusive share for toolloop's own functions. */
function summarize(profile: Profile): { self: [string, number][]; inclusive: [string, number][] } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const hits = new Map<number, number>();
  for (const id of profile.samples ?? []) hits.set(id, (hits.get(id) ?? 0) + 1);
  let total = 0;
  for (const count of hits.values()) total += count;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, samples] of hits) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') continue;
    const key = label(node);
    self.set(key, (self.get(key) ?? 0) + samples);
    const seen = new Set<string>();
    for (
      let current: number | undefined = id;
      current !== undefined;
      current = parent.get(current)
    ) {
      const frame = byId.get(current)!;
      if (!frame.callFrame.url.includes('/dist/') || frame.callFrame.url.includes('/bench/'))
        continue;
      const name = label(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + samples);
    }
  }
  const share = (entries: Map<string, number>) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(([name, samples]) => [name, samples / total] as [string, number]);
  return { self: share(self), inclusive: share(inclusive) };
}

/** Runs `lib/profile-target.js <mode>` under `node --cpu-prof`; returns the measured window's profile. */
function profile(mode: 'call' | 'stream', conversations: number): Profile {
  const directory = mkdtempSync(join(tmpdir(), 'toolloop-cpu-prof-'));
  try {
    const target = fileURLToPath(new URL('./lib/profile-target.js', import.meta.url));
    const run = spawnSync(
      process.execPath,
      [
        '--cpu-prof',
        `--cpu-prof-dir=${directory}`,
        '--cpu-prof-interval=100',
        target,
        mode,
        String(conversations),
      ],
      { encoding: 'utf8', env: process.env },
    );
    if (run.status !== 0) throw new Error(`profile target failed: ${run.stderr}`);
    const window = JSON.parse(run.stdout) as { startUs: number; endUs: number };
    const file = readdirSync(directory).find((name) => name.endsWith('.cpuprofile'));
    if (file === undefined) throw new Error('node --cpu-prof wrote no profile');
    const raw = JSON.parse(readFileSync(join(directory, file), 'utf8')) as Profile & {
      startTime: number;
      timeDeltas: number[];
    };
    // Keep the samples taken while the conversations ran (not start-up and warm-up).
    const kept: number[] = [];
    let time = raw.startTime;
    raw.samples?.forEach((id, index) => {
      time += raw.timeDeltas[index] ?? 0;
      if (time >= window.startUs && time <= window.endUs) kept.push(id);
    });
    return { nodes: raw.nodes, samples: kept.length > 0 ? kept : raw.samples };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const callProfile = summarize(profile('call', CALL_CONVERSATIONS));
progress('hot path: call profile taken');
const streamProfile = summarize(profile('stream', STREAM_CONVERSATIONS));
progress('hot path: stream profile taken');

const percent = (share: number) => `${fmt(share * 100, 2)}%`;
const out: string[] = ['## Hot path profile', ''];
out.push(
  `\`node --cpu-prof\` (100 µs sampling) of toolloop alone, in a child process, samples kept only while the measured conversations ran: ${fmt(CALL_CONVERSATIONS)} loop-overhead conversations through \`.call()\`, then ${fmt(STREAM_CONVERSATIONS)} streaming conversations through \`.stream()\`, each after a 1 s warm-up. "Self" is time in the function's own code (V8 attributes inlined callees to their caller); "inclusive" counts toolloop's functions (dist/) with everything they call. Shares are of all samples in the profile, idle excluded. Caveat: time spent in V8 builtins is charged to the JavaScript function that called them, and a thrown-and-caught exception (e.g. \`JSON.parse\` failing) is charged far more under the profiler than it costs without it, so read the shares as where to look, and the ratios in the sections above as what it costs.`,
  '',
);
for (const [title, summary] of [
  ['`.call()`', callProfile],
  ['`.stream()`', streamProfile],
] as const) {
  out.push(`${title}, self time:`, '');
  out.push(
    table(
      ['function', 'self'],
      summary.self.map(([name, share]) => [name, percent(share)]),
    ),
    '',
  );
  out.push(`${title}, inclusive time in toolloop's functions:`, '');
  out.push(
    table(
      ['function', 'inclusive'],
      summary.inclusive.map(([name, share]) => [name, percent(share)]),
    ),
    '',
  );
}
process.stdout.write(`${out.join('\n').trimEnd()}\n`);
