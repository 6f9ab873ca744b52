// OpenAI's Responses API with a reasoning model: the weather scenario, once with call() and once
// streamed. The model's reasoning items (encrypted, since nothing is stored at OpenAI) travel on
// the assistant message and go back with the tool results, so it reasons on from where it was.
// Run: OPENAI_API_KEY=… [OPENAI_MODEL=gpt-5-mini] \
//      npx tsc -p tsconfig.demo.json && node dist-demo/examples/openai-responses.js
import { pathToFileURL } from 'node:url';
import { ChatClient } from '../src/index.js';
import { OpenAiResponsesChatModel } from '../src/openai/index.js';
import { WeatherTools } from './weather-tools.js';

/** Runs the weather question against the Responses API; `false` when no key is configured. */
export async function runOpenAiResponsesExample(
  log: (line: string) => void = console.log,
): Promise<boolean> {
  if (!process.env.OPENAI_API_KEY && !process.env.OPENAI_BASE_URL) {
    log('skipped: set OPENAI_API_KEY to run this example');
    return false;
  }
  // Key, base URL and model come from OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_MODEL.
  const chatModel = new OpenAiResponsesChatModel({
    reasoningEffort: 'low',
    reasoningSummary: 'auto',
  });
  const client = ChatClient.create(chatModel);
  const question = 'What is the weather in Amsterdam and Paris right now?';

  const response = await client.prompt(question).tools(new WeatherTools()).call().chatResponse();
  const usage = response?.metadata.usage;
  log(`call(): ${response?.results[0]?.output.text}`);
  log(`tokens: ${usage?.completionTokens} out, ${usage?.reasoningTokens ?? 0} of them reasoning`);

  let streamed = '';
  for await (const text of client.prompt(question).tools(new WeatherTools()).stream().content()) {
    streamed += text;
  }
  log(`stream(): ${streamed}`);
  return true;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runOpenAiResponsesExample();
}
