import {
  assistantMessage,
  ChatClient,
  type Message,
  type ToolCallback,
  tool,
  userMessage,
} from 'toolloop';
import { BenchChatModel } from './bench-chat-model.js';
import {
  inputSchema,
  noopTool,
  priorHistory,
  QUESTION,
  type ToolBody,
  toolDescription,
  toolName,
} from './workload.js';

/**
 * toolloop's side of the workload: the real `ChatClient` (with its automatically registered
 * `ToolCallingAdvisor`), `tool()` with the Zod schema (validated by toolloop itself), and the
 * zero-latency `BenchChatModel`.
 */
export interface ToolloopSetup {
  client: ChatClient;
  tools: ToolCallback[];
  history: Message[];
}

/** `toolCount` tools, `historyLength` prior messages, one client; built once per benchmark. */
export function toolloopSetup(
  toolCount = 3,
  historyLength = 0,
  execute: ToolBody = noopTool,
): ToolloopSetup {
  const tools: ToolCallback[] = [];
  for (let i = 0; i < toolCount; i++) {
    tools.push(tool({ name: toolName(i), description: toolDescription(i), inputSchema, execute }));
  }
  const history = priorHistory(historyLength).map((entry) =>
    entry.role === 'user' ? userMessage(entry.text) : assistantMessage(entry.text),
  );
  return { client: ChatClient.create(new BenchChatModel(toolCount)), tools, history };
}

/** One conversation through `.call()`; resolves with the final text. */
export async function toolloopCall(setup: ToolloopSetup): Promise<string> {
  const request =
    setup.history.length === 0
      ? setup.client.prompt(QUESTION)
      : setup.client.prompt().messages(setup.history).user(QUESTION);
  return (
    (await request
      .tools(...setup.tools)
      .call()
      .content()) ?? ''
  );
}

/** One conversation through `.stream().content()`: its text chunks, as the caller reads them. */
export function toolloopStream(setup: ToolloopSetup): AsyncIterable<string> {
  return setup.client
    .prompt(QUESTION)
    .tools(...setup.tools)
    .stream()
    .content();
}
