// Anthropic (Messages API): the weather scenario against a real Claude model, once with call()
// and once streamed.
// Run: ANTHROPIC_API_KEY=… [ANTHROPIC_MODEL=…] npx tsc -p tsconfig.demo.json && node dist-demo/examples/anthropic.js
import { pathToFileURL } from 'node:url';
import { AnthropicChatModel } from '../src/anthropic/index.js';
import { ChatClient } from '../src/index.js';
import { WeatherTools } from './weather-tools.js';

/** Runs the weather question against Claude; `false` when no API key is configured. */
export async function runAnthropicExample(
  log: (line: string) => void = console.log,
): Promise<boolean> {
  const {
    ANTHROPIC_API_KEY: apiKey,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_MODEL: model,
  } = process.env;
  if (!apiKey) {
    log('skipped: set ANTHROPIC_API_KEY to run this example');
    return false;
  }
  const chatModel = new AnthropicChatModel({ apiKey, baseUrl, model, maxTokens: 1024 });
  const client = ChatClient.create(chatModel);
  const question = 'What is the weather in Amsterdam and Paris right now?';

  const answer = await client.prompt(question).tools(new WeatherTools()).call().content();
  log(`call(): ${answer}`);

  let streamed = '';
  for await (const text of client.prompt(question).tools(new WeatherTools()).stream().content()) {
    streamed += text;
  }
  log(`stream(): ${streamed}`);
  return true;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runAnthropicExample();
}
