import { ChatClient, type ChatModel, type ToolResponse } from '../index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { RecordingChatModel } from './recording-chat-model.js';
import { WeatherTools } from './weather-and-status-tools.js';

/** What the plain round trip showed. */
export interface PlainRoundTripDemoResult {
  modelCalls: number;
  toolResponses: ToolResponse[];
  answer: string | null;
}

/** The article's script: a tool call for Boston, then the paraphrased answer. */
export function plainRoundTripScript(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ id: 'call-1', name: 'current_weather', arguments: { city: 'Boston' } }]),
    textResponse("It's 14.5C and overcast in Boston right now, with 71% humidity."),
  ]);
}

/** Formats a tool response the way the article prints it. */
export function formatToolResponse(response: ToolResponse): string {
  return `ToolResponse[id=${response.id}, name=${response.name}, responseData=${response.responseData}]`;
}

/**
 * "The plain case: a tool, a round trip, an answer": one `@tool` method, and two model calls —
 * the second carries the tool's result back to the model.
 */
export async function runPlainRoundTripDemo(
  model: ChatModel = plainRoundTripScript(),
  log: (line: string) => void = console.log,
): Promise<PlainRoundTripDemoResult> {
  const recorder = new RecordingChatModel(model);
  const client = ChatClient.create(recorder, { tools: [new WeatherTools()] });
  const answer = await client.prompt("What's the weather in Boston?").call().content();
  const toolResponses = recorder.prompts
    .flatMap((prompt) => prompt.messages)
    .flatMap((message) => (message.role === 'tool' ? message.responses : []));
  const unique = [...new Map(toolResponses.map((response) => [response.id, response])).values()];
  log(`model call count: ${recorder.prompts.length}`);
  log(`call ${recorder.prompts.length} -- advisor sends the tool result back to the model:`);
  for (const response of unique) log(`tool response: ${formatToolResponse(response)}`);
  log('final answer returned to the caller:');
  log(answer ?? '(no text)');
  log('');
  return { modelCalls: recorder.prompts.length, toolResponses: unique, answer };
}
