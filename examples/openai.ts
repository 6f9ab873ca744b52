// OpenAI (or any OpenAI-compatible server: Ollama, vLLM, LM Studio, Groq, DeepSeek, xAI, …): the
// weather scenario against a real model, once with call() and once streamed.
// Run: OPENAI_API_KEY=… [OPENAI_BASE_URL=http://localhost:11434/v1] [OPENAI_MODEL=…] \
//      npx tsc -p tsconfig.demo.json && node dist-demo/examples/openai.js
import { pathToFileURL } from 'node:url';
import { ChatClient } from '../src/index.js';
import { OpenAiChatModel } from '../src/openai/index.js';
import { WeatherTools } from './weather-tools.js';

/** Runs the weather question against the configured model; `false` when no model is configured. */
export async function runOpenAiExample(
  log: (line: string) => void = console.log,
): Promise<boolean> {
  if (!process.env.OPENAI_API_KEY && !process.env.OPENAI_BASE_URL) {
    log(
      'skipped: set OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server) to run this example',
    );
    return false;
  }
  // Key, base URL and model come from OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_MODEL.
  const chatModel = new OpenAiChatModel({
    onSchemaAdaptation: ({ toolName, changes }) =>
      log(`schema of ${toolName} adapted: ${changes.join('; ')}`),
  });
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
  await runOpenAiExample();
}
