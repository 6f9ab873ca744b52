import { ChatClient, type ChatModel } from '../index.js';
import { ScriptedChatModel, toolCallResponse } from '../testing/index.js';
import { RecordingChatModel } from './recording-chat-model.js';
import { StatusTools } from './weather-and-status-tools.js';

/** What the returnDirect scenario showed. */
export interface ReturnDirectDemoResult {
  modelCalls: number;
  content: string | null;
}

/** The article's script: one tool call, and nothing else — a second call would fail loudly. */
export function returnDirectScript(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'server_status', arguments: { serviceName: 'orders-api' } }]),
  ]);
}

/**
 * "returnDirect: when the tool's answer is the answer": the tool's own JSON goes straight to the
 * caller, and the model is called once, not twice.
 */
export async function runReturnDirectDemo(
  model: ChatModel = returnDirectScript(),
  log: (line: string) => void = console.log,
  clock: () => Date = () => new Date('2026-09-23T18:00:00Z'),
): Promise<ReturnDirectDemoResult> {
  const recorder = new RecordingChatModel(model);
  const client = ChatClient.create(recorder, { tools: [new StatusTools(clock)] });
  const content = await client.prompt('Is orders-api up right now?').call().content();
  log(`model call count: ${recorder.prompts.length}`);
  log("raw content returned to the caller (the tool's own JSON, unparaphrased):");
  log(content ?? '(no text)');
  log('');
  return { modelCalls: recorder.prompts.length, content };
}
