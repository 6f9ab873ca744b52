// `npm start`: every scenario `toolloop demo` shows (the list lives in src/demo/run-demo.ts),
// against ScriptedChatModel, or against a real OpenAI-compatible model when OPENAI_API_KEY or
// OPENAI_BASE_URL is set.
import { realModelFromEnvironment, runDemo } from '../src/demo/run-demo.js';

await runDemo(await realModelFromEnvironment());
