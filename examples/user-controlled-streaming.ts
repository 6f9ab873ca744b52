// User-controlled tool execution (streaming): each round's chunks are forwarded as they arrive
// (to an SSE or WebSocket endpoint, say) and aggregated to decide whether tools must run.
import { pathToFileURL } from 'node:url';
import {
  AdvisorParams,
  ChatClient,
  type ChatModel,
  type ChatResponse,
  ChatResponseAggregator,
  createPrompt,
  createToolCallingManager,
  hasToolCalls,
  toolCallbacksFrom,
  userMessage,
} from '../src/index.js';
import { scriptedWeatherModel, WeatherTools } from './weather-tools.js';

/** What the streaming loop produced. */
export interface UserControlledStreamingResult {
  answer: string | null;
  toolRounds: number;
  /** Every chunk forwarded, per model round. */
  forwardedChunks: number[];
}

/**
 * The streaming variant of the user-controlled loop: every round streams with auto-registration
 * off; `forward` receives each chunk at once, and a `ChatResponseAggregator` assembles the round's
 * response so that its tool calls can be executed before the next round.
 */
export async function runUserControlledStreaming(
  chatModel: ChatModel = scriptedWeatherModel(),
  forward: (chunk: ChatResponse) => void = (chunk) => {
    const text = chunk.results[0]?.output.text;
    if (text) process.stdout.write(text);
  },
  signal?: AbortSignal,
): Promise<UserControlledStreamingResult> {
  const chatClient = ChatClient.create(chatModel);
  const toolCallingManager = createToolCallingManager();
  const chatOptions = { toolCallbacks: toolCallbacksFrom(new WeatherTools()) };
  const question = 'What is the weather in Amsterdam and Paris?';

  let prompt = createPrompt([userMessage(question)], chatOptions);
  let toolRounds = 0;
  const forwardedChunks: number[] = [];
  for (;;) {
    const aggregator = new ChatResponseAggregator();
    const stream = chatClient
      .prompt()
      .messages(prompt.messages)
      .options(chatOptions)
      .advisors(AdvisorParams.toolCallingAdvisorAutoRegister(false))
      .stream({ signal })
      .chatResponse();
    for await (const chunk of stream) {
      forward(chunk);
      aggregator.add(chunk);
    }
    forwardedChunks.push(aggregator.size);
    const response = aggregator.result();
    if (!hasToolCalls(response)) {
      return { answer: response.results[0]?.output.text ?? null, toolRounds, forwardedChunks };
    }
    const result = await toolCallingManager.executeToolCalls(prompt, response, { signal });
    toolRounds++;
    prompt = createPrompt(result.conversationHistory, chatOptions);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runUserControlledStreaming();
  process.stdout.write(
    `\n(${result.toolRounds} tool round, chunks per model round: ${result.forwardedChunks.join(', ')})\n`,
  );
}
