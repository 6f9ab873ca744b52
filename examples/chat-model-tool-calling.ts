// ChatModel Tool Calling: the model driven directly, without ChatClient and without the tool
// loop advisor. The model is sent the tool definitions and answers with tool calls, which are NOT
// executed for you: you run them with a ToolCallingManager and send the results back yourself.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/chat-model-tool-calling.js
import { pathToFileURL } from 'node:url';
import {
  type ChatModel,
  createPrompt,
  createToolCallingManager,
  hasToolCalls,
  type ToolCallback,
  toolCallbacksFrom,
  userMessage,
} from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';
import { WeatherTools } from './weather-tools.js';

/** Stands in for a real model: asks for the weather of one city, then answers. */
export function scriptedChatModelToolCallingModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ id: 'call-1', name: 'current_weather', arguments: { city: 'Amsterdam' } }]),
    textResponse('It is 11 °C and raining in Amsterdam.'),
  ]);
}

/** What the run showed. */
export interface ChatModelToolCallingResult {
  /** The tool calls of the model's first response, as `name(arguments)`. */
  requested: string[];
  /** How many tool calls had run when the first response came back: none. */
  executedBeforeManager: number;
  answer: string | null;
  modelCalls: number;
}

export async function runChatModelToolCalling(
  chatModel: ChatModel = scriptedChatModelToolCallingModel(),
  log: (line: string) => void = console.log,
): Promise<ChatModelToolCallingResult> {
  let executed = 0;
  const weather = new WeatherTools();
  // The options' type is inferred as `{ toolCallbacks: ToolCallback[] }`: with no tool context in
  // it, the same prompt goes to the model and to the manager.
  const options = {
    toolCallbacks: toolCallbacksFrom(weather).map(
      (callback): ToolCallback => ({
        ...callback,
        // A copy with its own `call`: the manager runs this one (not the tool's `execute`).
        call: (input, context, callOptions) => {
          executed++;
          return callback.call(input, context, callOptions);
        },
      }),
    ),
  };
  let prompt = createPrompt([userMessage('What is the weather in Amsterdam?')], options);
  let response = await chatModel.call(prompt);
  let modelCalls = 1;
  const requested = (response.results[0]?.output.toolCalls ?? []).map(
    (call) => `${call.name}(${call.arguments})`,
  );
  const executedBeforeManager = executed;
  log(`the model asks for ${requested.join(', ')}; tools run so far: ${executed}`);

  const manager = createToolCallingManager();
  while (hasToolCalls(response)) {
    const result = await manager.executeToolCalls(prompt, response);
    log(
      `executed ${executed} tool call(s); sending ${result.conversationHistory.length} messages back`,
    );
    prompt = createPrompt(result.conversationHistory, options);
    response = await chatModel.call(prompt);
    modelCalls++;
  }
  const answer = response.results[0]?.output.text ?? null;
  log(`answer: ${answer}`);
  return { requested, executedBeforeManager, answer, modelCalls };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runChatModelToolCalling();
}
