import type { ChatModel, Message, ToolCall, ToolResponse } from 'toolloop';
import type { ZodType } from 'zod';

/**
 * The least code that runs the same tool loop as the frameworks: call the model, validate each
 * call's JSON arguments against its Zod schema, run the calls concurrently, append the results,
 * and call the model again until it answers with text. It is the baseline every ratio refers to.
 */

/** A tool as the hand-written loop knows it. */
export interface HandTool {
  name: string;
  schema: ZodType;
  execute(input: unknown): Promise<string>;
}

/** Tools by name. */
export type HandTools = ReadonlyMap<string, HandTool>;

/** Builds the name → tool map once. */
export function handTools(tools: readonly HandTool[]): HandTools {
  return new Map(tools.map((tool) => [tool.name, tool]));
}

async function runCall(tools: HandTools, call: ToolCall): Promise<ToolResponse> {
  const tool = tools.get(call.name);
  if (tool === undefined) {
    return { id: call.id, name: call.name, responseData: 'Unknown tool', isError: true };
  }
  let input: unknown;
  try {
    input = JSON.parse(call.arguments);
  } catch {
    return { id: call.id, name: call.name, responseData: 'Arguments are not JSON', isError: true };
  }
  const parsed = tool.schema.safeParse(input);
  if (!parsed.success) {
    return { id: call.id, name: call.name, responseData: parsed.error.message, isError: true };
  }
  return { id: call.id, name: call.name, responseData: await tool.execute(parsed.data) };
}

function runCalls(tools: HandTools, calls: readonly ToolCall[]): Promise<ToolResponse[]> {
  return Promise.all(calls.map((call) => runCall(tools, call)));
}

/** One conversation through `model.call`; resolves with the final text. */
export async function handWrittenCall(
  model: ChatModel,
  tools: HandTools,
  history: readonly Message[],
  question: string,
): Promise<string> {
  const messages: Message[] = [...history, { role: 'user', text: question }];
  for (;;) {
    const response = await model.call({ messages, options: {} });
    const output = response.results[0]!.output;
    messages.push(output);
    if (output.toolCalls.length === 0) return output.text ?? '';
    messages.push({ role: 'tool', responses: await runCalls(tools, output.toolCalls) });
  }
}

/** One conversation through `model.stream`; yields every text delta as it arrives. */
export async function* handWrittenStream(
  model: ChatModel,
  tools: HandTools,
  question: string,
): AsyncGenerator<string> {
  const messages: Message[] = [{ role: 'user', text: question }];
  for (;;) {
    let text = '';
    const calls: ToolCall[] = [];
    for await (const chunk of model.stream!({ messages, options: {} })) {
      const output = chunk.results[0]!.output;
      if (output.text) {
        text += output.text;
        yield output.text;
      }
      for (const call of output.toolCalls) calls.push(call);
    }
    messages.push({ role: 'assistant', text: text === '' ? null : text, toolCalls: calls });
    if (calls.length === 0) return;
    messages.push({ role: 'tool', responses: await runCalls(tools, calls) });
  }
}
