// The scenarios of `toolloop demo` and `npm start` (both run this list, so they show the same):
// Spring AI's tool-calling scenarios against ScriptedChatModel, or against a real model when the
// environment names one (TOOLLOOP_MODEL, OPENAI_API_KEY / OPENAI_BASE_URL, GEMINI_API_KEY).
import type { ChatModel } from '../index.js';
import { runApprovalDemo } from './approval-demo.js';
import { runAugmentationDemo } from './augmentation-demo.js';
import { runDurableDemo } from './durable-demo.js';
import {
  MCP_SDK_MISSING,
  type McpDemoFiles,
  mcpSdkInstalled,
  runMcpCombineDemo,
  runMcpConsumeDemo,
  runMcpExposeDemo,
} from './mcp-demo.js';
import { runMemoryDemo } from './memory-demo.js';
import { runPlainRoundTripDemo } from './plain-round-trip-demo.js';
import { runReturnDirectDemo } from './return-direct-demo.js';
import { runToolContextDemo } from './tool-context-demo.js';
import { runToolSearchDemo } from './tool-search-demo.js';
import { runTracePageDemo } from './trace-page-demo.js';

/**
 * The real model the environment configures, or `undefined` for the scripted one: the model id of
 * `TOOLLOOP_MODEL` (`openai-responses:gpt-5-mini`, `google:gemini-2.5-flash`, …); else an
 * OpenAI-compatible model when `OPENAI_API_KEY` or `OPENAI_BASE_URL` is set (and `OPENAI_MODEL`);
 * else Gemini when `GEMINI_API_KEY` or `GOOGLE_API_KEY` is set. Each model reads its own
 * variables (keys, base URLs) from `env` itself.
 */
export async function realModelFromEnvironment(
  env: Readonly<Record<string, string | undefined>> = process.env,
  log: (line: string) => void = console.log,
): Promise<ChatModel | undefined> {
  const { TOOLLOOP_MODEL: id, OPENAI_API_KEY, OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: model } = env;
  if (id) {
    const { ChatModelRegistry } = await import('../config/index.js');
    log(`Using the real model ${id} (TOOLLOOP_MODEL)\n`);
    return new ChatModelRegistry().create(id, { env });
  }
  if (OPENAI_API_KEY || baseUrl) {
    const { OpenAiChatModel } = await import('../openai/index.js');
    log(`Using the real model ${model ?? '(default)'} at ${baseUrl ?? 'api.openai.com'}\n`);
    return new OpenAiChatModel({ env });
  }
  if (env.GEMINI_API_KEY || env.GOOGLE_API_KEY) {
    const { GoogleChatModel } = await import('../google/index.js');
    const gemini = new GoogleChatModel({ env });
    log(`Using the real model ${String(gemini.defaultOptions.model)} of the Gemini API\n`);
    return gemini;
  }
  log(
    'Using ScriptedChatModel (set OPENAI_API_KEY, OPENAI_BASE_URL or GEMINI_API_KEY, or TOOLLOOP_MODEL, for a real model)\n',
  );
  return undefined;
}

/** What a scenario gets: the real model (or `undefined` for its script) and where to print. */
export interface DemoContext {
  readonly real: ChatModel | undefined;
  readonly log: (line: string) => void;
  /** Where the trace page is written. */
  readonly traceDirectory: string | undefined;
  readonly mcpFiles: McpDemoFiles;
}

/** One scenario: its heading and what it runs. `needsMcp` ones run only with the MCP SDK. */
export interface DemoScenario {
  readonly title: string;
  readonly needsMcp?: boolean;
  run(context: DemoContext): Promise<unknown>;
}

/** Every scenario, in the order they are shown. */
export const DEMO_SCENARIOS: readonly DemoScenario[] = [
  {
    title: 'The plain case: a tool, a round trip, an answer',
    run: ({ real, log }) => runPlainRoundTripDemo(real, log),
  },
  {
    title: 'returnDirect: when the tool’s answer is the answer',
    run: ({ real, log }) => runReturnDirectDemo(real, log, real ? () => new Date() : undefined),
  },
  {
    title: 'ToolContext: data the model must never see or choose',
    run: ({ real, log }) => runToolContextDemo(real, log),
  },
  {
    title: 'Tool Search: 230 tools behind one search tool',
    run: ({ real, log }) => runToolSearchDemo(real, log),
  },
  {
    title: 'Chat memory across a restart (SQLite, memory inside the tool loop)',
    run: ({ real, log }) => runMemoryDemo(real, log),
  },
  {
    title: 'Tool argument augmentation: the model’s reasoning with every call',
    run: ({ real, log }) => runAugmentationDemo(real, log),
  },
  {
    title: 'Approval gate: a destructive tool waits for a human',
    run: ({ real, log }) => runApprovalDemo(real, log),
  },
  {
    title:
      'Durable turns: a worker killed mid-turn, another worker finishes it (DBOS on PostgreSQL)',
    run: ({ log }) => runDurableDemo(log),
  },
  {
    title: 'MCP: consume a server started as a child process (toolloop mcp serve)',
    needsMcp: true,
    run: ({ real, log, mcpFiles }) => runMcpConsumeDemo(real, log, mcpFiles),
  },
  {
    title: 'MCP: expose tools as an MCP server over Streamable HTTP',
    needsMcp: true,
    run: ({ log }) => runMcpExposeDemo(log),
  },
  {
    title: 'MCP: local and MCP tools in one .tools() call',
    needsMcp: true,
    run: ({ real, log, mcpFiles }) => runMcpCombineDemo(real, log, mcpFiles),
  },
  {
    title: 'The trace page: the demo turns on a time axis',
    run: ({ real, log, traceDirectory }) => runTracePageDemo(real, log, traceDirectory),
  },
];

/** Options of {@link runDemo}. */
export interface RunDemoOptions {
  /** Where the trace page is written; default a new `toolloop-demo-…` folder in the system's temporary directory. */
  traceDirectory?: string;
  /** Where the MCP scenarios find the bin and the served module; default beside this module. */
  mcpFiles?: McpDemoFiles;
}

/**
 * Runs every scenario of {@link DEMO_SCENARIOS} under its `== heading ==`. Without the MCP SDK,
 * the MCP scenarios are replaced by one line saying how to enable them.
 */
export async function runDemo(
  real: ChatModel | undefined,
  log: (line: string) => void = console.log,
  options: RunDemoOptions = {},
): Promise<void> {
  const context: DemoContext = {
    real,
    log,
    traceDirectory: options.traceDirectory,
    mcpFiles: options.mcpFiles ?? {},
  };
  const withMcp = await mcpSdkInstalled();
  let toldMissing = false;
  for (const scenario of DEMO_SCENARIOS) {
    if (scenario.needsMcp && !withMcp) {
      if (!toldMissing) log(`${MCP_SDK_MISSING}\n`);
      toldMissing = true;
      continue;
    }
    log(`== ${scenario.title} ==`);
    await scenario.run(context);
  }
}
