import { type ChildProcess, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ToolCallback } from 'toolloop';
import { McpToolCallbackProvider } from 'toolloop/mcp';
import { check, count, fmt, fmtRatio, progress, SMOKE, table, verdict } from './lib/harness.js';

/**
 * MCP: one tool call through toolloop's `McpToolCallbackProvider` (the `ToolCallback` the loop
 * calls: arguments as JSON text in, the result's text out) against the same call made with the
 * bare official SDK client (`Client.callTool`, reading the text block), over stdio and over
 * Streamable HTTP, to the same kind of server (the official SDK's `McpServer`, in its own
 * process). Calls run one at a time; wall time and this process's CPU time per call.
 */

const CALLS = count(2_000, 10);
const REPETITIONS = count(5, 1);
const WARMUP = count(300, 3);
const serverScript = fileURLToPath(new URL('./lib/mcp/bench-mcp-server.js', import.meta.url));
const loadAtStart = loadavg();

const ARGUMENTS = { city: 'Paris', days: 3 };
const EXPECTED = 'forecast for Paris, 3 days: mild';

type Call = () => Promise<string>;

interface Contestant {
  transport: 'stdio' | 'Streamable HTTP';
  label: string;
  call: Call;
  close(): Promise<void>;
  wallUs: number[];
  cpuUs: number[];
}

async function startHttpServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [serverScript, 'http'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the MCP server exited (${code})`)));
    child.stdout!.on('data', (data: Buffer) => {
      const match = /port (\d+)/.exec(data.toString());
      if (match) resolve(Number(match[1]));
    });
  });
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

async function bare(transport: Contestant['transport'], url?: string): Promise<Contestant> {
  const client = new Client({ name: 'bench-bare', version: '1.0.0' });
  await client.connect(
    transport === 'stdio'
      ? new StdioClientTransport({ command: process.execPath, args: [serverScript, 'stdio'] })
      : new StreamableHTTPClientTransport(new URL(url!)),
  );
  return {
    transport,
    label: 'bare SDK `Client.callTool`',
    call: async () => {
      const result = await client.callTool({ name: 'lookup', arguments: ARGUMENTS });
      const blocks = result.content as { type: string; text?: string }[];
      return blocks[0]?.text ?? '';
    },
    close: () => client.close(),
    wallUs: [],
    cpuUs: [],
  };
}

async function ours(transport: Contestant['transport'], url?: string): Promise<Contestant> {
  const provider = new McpToolCallbackProvider({
    connections: {
      bench:
        transport === 'stdio'
          ? { command: process.execPath, args: [serverScript, 'stdio'] }
          : { url: url! },
    },
  });
  const tools: ToolCallback[] = await provider.getToolCallbacks();
  const lookup = tools.find((entry) => entry.definition.name === 'lookup');
  check(lookup !== undefined, 'toolloop lists the lookup tool');
  const input = JSON.stringify(ARGUMENTS);
  return {
    transport,
    label: 'toolloop `McpToolCallbackProvider` tool callback',
    call: () => lookup.call(input),
    close: () => provider.close(),
    wallUs: [],
    cpuUs: [],
  };
}

const http = await startHttpServer();
const contestants: Contestant[] = [];
try {
  contestants.push(
    await bare('stdio'),
    await ours('stdio'),
    await bare('Streamable HTTP', http.url),
    await ours('Streamable HTTP', http.url),
  );
  for (const contestant of contestants) {
    const answer = await contestant.call();
    check(answer === EXPECTED, `${contestant.transport} ${contestant.label} answered ${answer}`);
    for (let i = 0; i < WARMUP; i++) await contestant.call();
  }
  // Repetitions take turns across the contestants, so load from elsewhere falls on all alike.
  for (let repetition = 0; repetition < REPETITIONS; repetition++) {
    for (const contestant of contestants) {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < CALLS; i++) await contestant.call();
      const wallUs = ((performance.now() - started) * 1000) / CALLS;
      const cpu = process.cpuUsage(cpuBefore);
      contestant.wallUs.push(wallUs);
      contestant.cpuUs.push((cpu.user + cpu.system) / CALLS);
      progress(`mcp: ${contestant.transport} ${contestant.label}: ${fmt(wallUs)} µs per call`);
    }
  }
} finally {
  for (const contestant of contestants) await contestant.close();
  http.child.kill();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[(values.length - 1) >> 1]!;
const rows: string[][] = [];
const targets: string[] = [];
for (const transport of ['stdio', 'Streamable HTTP'] as const) {
  const [base, toolloop] = contestants.filter((c) => c.transport === transport) as [
    Contestant,
    Contestant,
  ];
  for (const contestant of [base, toolloop]) {
    rows.push([
      transport,
      contestant.label,
      fmt(median(contestant.wallUs)),
      fmtRatio(median(contestant.wallUs) / median(base.wallUs)),
      fmt(median(contestant.cpuUs)),
      fmtRatio(median(contestant.cpuUs) / median(base.cpuUs)),
    ]);
  }
  const wall = median(toolloop.wallUs) / median(base.wallUs);
  const cpu = median(toolloop.cpuUs) / median(base.cpuUs);
  const overhead = median(toolloop.wallUs) - median(base.wallUs);
  targets.push(
    `- ${transport}: at most 1.2× the bare SDK client per call: ${fmtRatio(wall)} wall time (${fmt(overhead)} µs more per call), ${fmtRatio(cpu)} client CPU — ${verdict(wall <= 1.2 && cpu <= 1.2)}.`,
  );
}

process.stdout.write(`## MCP overhead

Workload: one tool call (\`lookup\` with \`{"city": "Paris", "days": 3}\`, answered at once with one
text block) to an MCP server built with the official SDK (\`McpServer\`), in its own process, over
stdio and over Streamable HTTP (one session per client, answers as server-sent events, the SDK's
default). toolloop: the \`ToolCallback\` that \`McpToolCallbackProvider\` lists, called as the loop
calls it (JSON arguments in, result text out). Bare: the official SDK's \`Client.callTool\` on its
own connection, reading the text block. ${fmt(CALLS)} calls one after another per repetition, after
${fmt(WARMUP)} warm-up calls, ${REPETITIONS} repetitions taking turns; median. CPU is this process's
(\`process.cpuUsage()\`, the client side only). Load average at the start: ${loadAtStart.map((l) => l.toFixed(1)).join(' / ')} on 2 cores.${SMOKE ? ' (smoke run)' : ''}

${table(['transport', 'client', 'µs / call (wall)', '× bare', 'client CPU µs / call', '× bare'], rows)}

Targets:

${targets.join('\n')}
`);
