// User-controlled tool execution (blocking): the caller drives the loop instead of the
// auto-registered ToolCallingAdvisor. Run: npm start builds it; node dist-demo/examples/user-controlled-loop.js
import { pathToFileURL } from 'node:url';
import {
  AdvisorParams,
  ChatClient,
  type ChatModel,
  createPrompt,
  createToolCallingManager,
  hasToolCalls,
  toolCallbacksFrom,
  userMessage,
} from '../src/index.js';
import { scriptedWeatherModel, WeatherTools } from './weather-tools.js';

/** What the loop produced. */
export interface UserControlledLoopResult {
  answer: string | null;
  /** Tool batches the caller executed. */
  toolRounds: number;
}

/**
 * Asks about the weather in two cities with auto-registration off, and executes each round of
 * tool calls itself with a `ToolCallingManager`. Each iteration is a place to gate, log or stop.
 */
export async function runUserControlledLoop(
  chatModel: ChatModel = scriptedWeatherModel(),
  log: (line: string) => void = console.log,
): Promise<UserControlledLoopResult> {
  const chatClient = ChatClient.create(chatModel);
  const toolCallingManager = createToolCallingManager();
  const chatOptions = { toolCallbacks: toolCallbacksFrom(new WeatherTools()) };
  const question = 'What is the weather in Amsterdam and Paris?';

  // ToolCallingAdvisor disabled: no tool loop runs automatically.
  let response = await chatClient
    .prompt()
    .user(question)
    .options(chatOptions)
    .advisors(AdvisorParams.toolCallingAdvisorAutoRegister(false))
    .call()
    .chatClientResponse();
  let prompt = createPrompt([userMessage(question)], chatOptions);
  let toolRounds = 0;

  while (response.chatResponse !== null && hasToolCalls(response.chatResponse)) {
    const calls = response.chatResponse.results[0]?.output.toolCalls ?? [];
    log(
      `round ${toolRounds + 1}: the model asks for ${calls.map((call) => `${call.name}(${call.arguments})`).join(', ')}`,
    );
    const result = await toolCallingManager.executeToolCalls(prompt, response.chatResponse);
    toolRounds++;
    prompt = createPrompt(result.conversationHistory, chatOptions);
    response = await chatClient
      .prompt()
      .messages(result.conversationHistory)
      .options(chatOptions)
      .advisors(AdvisorParams.toolCallingAdvisorAutoRegister(false))
      .call()
      .chatClientResponse();
  }
  const answer = response.chatResponse?.results[0]?.output.text ?? null;
  log(`final answer: ${answer}`);
  return { answer, toolRounds };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runUserControlledLoop();
}
