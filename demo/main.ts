// `npm start`: every scenario `toolloop demo` shows (the list lives in src/demo/run-demo.ts),
// against ScriptedChatModel, or against a real model when the environment names one:
// TOOLLOOP_MODEL=openai-responses:gpt-5-mini (or google:…, anthropic:…), OPENAI_API_KEY or
// OPENAI_BASE_URL (Chat Completions), GEMINI_API_KEY or GOOGLE_API_KEY (Gemini).
import { realModelFromEnvironment, runDemo } from '../src/demo/run-demo.js';

await runDemo(await realModelFromEnvironment());
