import { z } from 'zod';

/**
 * The workload every framework runs, identical everywhere: the user asks one question; the model
 * answers with three parallel tool calls (small JSON arguments that every framework validates
 * against the same schema), the no-op async tools answer, and the model answers with text.
 *
 * The scripted models are stateless and zero-latency: they look at the last message of the prompt
 * (a user message → the tool calls; tool results → the final text), so nothing but the framework
 * is measured and one model instance serves any number of concurrent conversations.
 */

/** The user's question. */
export const QUESTION = 'What is the weather in Paris, Berlin and Rome for the next days?';

/** The model's final answer. */
export const FINAL_TEXT = 'Sunny in Paris, cloudy in Berlin, warm in Rome.';

/** What every no-op tool returns. */
export const TOOL_RESULT = 'ok';

/** Tool calls per model response in the first round. */
export const PARALLEL_CALLS = 3;

const CITIES = ['Paris', 'Berlin', 'Rome'] as const;

/** The name of attached tool number `index`. */
export function toolName(index: number): string {
  return `lookup_${index}`;
}

/** The description of attached tool number `index`. */
export function toolDescription(index: number): string {
  return `Looks up forecast number ${index} for a city over a number of days.`;
}

/** The tools' input schema (Zod 4), used by every framework that takes Zod. */
export const inputSchema = z.object({
  city: z.string().min(1).describe('The city name'),
  days: z.number().int().min(1).max(14).describe('Days ahead'),
});

/** The tools' input type. */
export type ToolInput = z.infer<typeof inputSchema>;

/** One scripted tool call, framework-neutral. */
export interface ScriptedCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * The tool calls of the first round when `toolCount` tools are attached: call `k` goes to tool
 * `k mod toolCount`, with its own id and arguments.
 */
export function scriptedCalls(toolCount: number): ScriptedCall[] {
  const calls: ScriptedCall[] = [];
  for (let k = 0; k < PARALLEL_CALLS; k++) {
    calls.push({
      id: `call_${k}`,
      name: toolName(k % toolCount),
      arguments: JSON.stringify({ city: CITIES[k % CITIES.length], days: k + 1 }),
    });
  }
  return calls;
}

/** How many times any no-op tool ran (the benchmarks check it, so a skipped loop cannot pass). */
export const toolRuns = { count: 0 };

/** A tool body: what every framework's tools run. */
export type ToolBody = (input: ToolInput) => Promise<string>;

/** The no-op async tool body shared by every framework. */
export async function noopTool(_input: ToolInput): Promise<string> {
  toolRuns.count++;
  return TOOL_RESULT;
}

/** Text deltas per streamed answer. */
export const STREAM_DELTAS = 50;

/** The `STREAM_DELTAS` text deltas of a streamed answer (short words, as a provider sends them). */
export const STREAM_TEXT_DELTAS: readonly string[] = Array.from(
  { length: STREAM_DELTAS },
  (_, i) => `w${i} `,
);

/**
 * A prior conversation of `length` messages (alternating user / assistant text), used by the
 * history-scaling benchmark; each framework converts it to its own message type once.
 */
export function priorHistory(length: number): { role: 'user' | 'assistant'; text: string }[] {
  const history: { role: 'user' | 'assistant'; text: string }[] = [];
  for (let i = 0; i < length; i++) {
    history.push(
      i % 2 === 0
        ? { role: 'user', text: `Earlier question ${i} about the weather somewhere.` }
        : { role: 'assistant', text: `Earlier answer ${i}: it was fine.` },
    );
  }
  return history;
}
