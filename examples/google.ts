// Gemini: the weather scenario against the Gemini API, once with call() and once streamed. Gemini
// 3 signs its function calls (thought signatures); toolloop keeps each signature on its call and
// sends it back with the tool results, as the second request requires.
// Run: GEMINI_API_KEY=… npx tsc -p tsconfig.demo.json && node dist-demo/examples/google.js
import { pathToFileURL } from 'node:url';
import { GoogleChatModel } from '../src/google/index.js';
import { ChatClient } from '../src/index.js';
import { WeatherTools } from './weather-tools.js';

/** Runs the weather question against Gemini; `false` when no key is configured. */
export async function runGoogleExample(
  log: (line: string) => void = console.log,
): Promise<boolean> {
  if (!process.env.GEMINI_API_KEY && !process.env.GOOGLE_API_KEY) {
    log('skipped: set GEMINI_API_KEY to run this example');
    return false;
  }
  // The key comes from GOOGLE_API_KEY or GEMINI_API_KEY, the base URL from GOOGLE_GEMINI_BASE_URL.
  const chatModel = new GoogleChatModel({
    model: 'gemini-3-flash-preview',
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
  await runGoogleExample();
}
