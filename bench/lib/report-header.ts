import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fmt } from './harness.js';

/**
 * Prints the head of bench/RESULTS.md: the machine, Node, the date, the commit, and the exact
 * versions of toolloop and of every peer, read from the installed packages.
 */

const benchRoot = new URL('../../', import.meta.url);
const projectRoot = new URL('../', benchRoot);

function installedVersion(name: string): string {
  // The benchmark peers are in bench/node_modules; what toolloop itself depends on (the MCP SDK,
  // the database drivers) is in the project's.
  for (const root of [benchRoot, projectRoot]) {
    try {
      const manifest = JSON.parse(
        readFileSync(new URL(`node_modules/${name}/package.json`, root), 'utf8'),
      ) as { version?: string };
      return manifest.version ?? 'unknown';
    } catch {
      // Not installed under this root.
    }
  }
  return 'not installed';
}

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: projectRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}

const toolloopVersion = (
  JSON.parse(readFileSync(new URL('package.json', projectRoot), 'utf8')) as { version: string }
).version;
const cpuList = cpus();
const peers = [
  'ai',
  '@ai-sdk/openai-compatible',
  '@ai-sdk/anthropic',
  '@openai/agents',
  'openai',
  'langchain',
  '@langchain/core',
  '@langchain/langgraph',
  '@langchain/openai',
  'eventsource-parser',
  '@modelcontextprotocol/sdk',
  'better-sqlite3',
  'ioredis',
  'pg',
  'zod',
];

const lines = [
  '# Benchmark results',
  '',
  'Written by `npm run bench` (bench/run.sh); do not edit by hand. Every ratio compares numbers measured in this same run. Scripted zero-latency models: only the frameworks are measured.',
  '',
  `- Machine: ${cpuList[0]?.model.trim() ?? 'unknown CPU'}, ${cpuList.length} cores, ${fmt(totalmem() / 1024 ** 3)} GB memory (${process.platform} ${process.arch})`,
  `- Node ${process.version}, run with \`--expose-gc\``,
  `- Date: ${new Date().toISOString().replace('T', ' ').slice(0, 16)} UTC`,
  // A loaded machine slows everything and GC most (parallel scavenges wait for descheduled
  // helper threads): ratios within one run stay comparable, absolute numbers do not.
  `- Load: ${loadavg()
    .map((load) => load.toFixed(1))
    .join(' / ')} (1 / 5 / 15 min load average at the start, on ${cpuList.length} cores)`,
  `- toolloop ${toolloopVersion} (commit ${commit()})`,
  `- Peers: ${peers.map((name) => `\`${name}\` ${installedVersion(name)}`).join(', ')}`,
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
