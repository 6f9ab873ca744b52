import {
  Agent,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  Runner,
  setTracingDisabled,
  tool,
  Usage,
} from '@openai/agents';
import {
  FINAL_TEXT,
  inputSchema,
  noopTool,
  scriptedCalls,
  type ToolBody,
  toolDescription,
  toolName,
} from './workload.js';

/**
 * The OpenAI Agents SDK side of the workload: a scripted `Model` (the SDK's extension point for
 * model providers) behind a real `Agent` and `Runner`, with Zod-validated function tools. Tracing
 * is turned off so that nothing is exported; the runner's own bookkeeping all runs.
 */

setTracingDisabled(true);

function wantsTools(input: string | AgentInputItem[]): boolean {
  if (typeof input === 'string') return true;
  const last = input[input.length - 1];
  return last !== undefined && 'role' in last && last.role === 'user';
}

/** The scripted zero-latency model. */
export class AgentsBenchModel implements Model {
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const usage = new Usage({ requests: 1, inputTokens: 10, outputTokens: 10, totalTokens: 20 });
    if (wantsTools(request.input)) {
      return {
        usage,
        output: scriptedCalls(3).map((call) => ({
          type: 'function_call' as const,
          callId: call.id,
          name: call.name,
          arguments: call.arguments,
          status: 'completed' as const,
        })),
      };
    }
    return {
      usage,
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: FINAL_TEXT }],
        },
      ],
    };
  }

  // biome-ignore lint/correctness/useYield: the streaming workload does not use this SDK.
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not used by the benchmarks');
  }
}

/** An agent with three Zod-validated no-op tools and the scripted model, and a runner. */
export function openAiAgentsSetup(execute: ToolBody = noopTool): { agent: Agent; runner: Runner } {
  const tools = [0, 1, 2].map((i) =>
    tool({
      name: toolName(i),
      description: toolDescription(i),
      parameters: inputSchema,
      execute,
    }),
  );
  const agent = new Agent({
    name: 'bench',
    instructions: 'Answer weather questions.',
    model: new AgentsBenchModel(),
    tools,
  });
  return { agent, runner: new Runner({ tracingDisabled: true }) };
}

/** One conversation; resolves with the final text. */
export async function openAiAgentsCall(
  setup: { agent: Agent; runner: Runner },
  question: string,
): Promise<string> {
  const result = await setup.runner.run(setup.agent, question);
  return String(result.finalOutput);
}
