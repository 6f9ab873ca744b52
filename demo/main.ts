// `npm start`: the seed article's scenarios, against ScriptedChatModel, or against a real
// OpenAI-compatible model when OPENAI_API_KEY or OPENAI_BASE_URL is set.
import { runToolArgumentAugmentation } from '../examples/tool-argument-augmentation.js';
import type { ChatModel } from '../src/index.js';
import { runApprovalDemo } from './approval-demo.js';
import { runMcpDemo } from './mcp-demo.js';
import { runMemoryDemo } from './memory-demo.js';
import { runPlainRoundTripDemo } from './plain-round-trip-demo.js';
import { runReturnDirectDemo } from './return-direct-demo.js';
import { runToolContextDemo } from './tool-context-demo.js';
import { runToolSearchDemo } from './tool-search-demo.js';
import { runTracePageDemo } from './trace-page-demo.js';

async function realModel(): Promise<ChatModel | undefined> {
  const { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: model } = process.env;
  if (!apiKey && !baseUrl) return undefined;
  const { OpenAiChatModel } = await import('../src/openai/index.js');
  console.log(`Using the real model ${model ?? '(default)'} at ${baseUrl ?? 'api.openai.com'}\n`);
  // The model reads the same three variables itself.
  return new OpenAiChatModel();
}

const real = await realModel();
if (!real)
  console.log('Using ScriptedChatModel (set OPENAI_API_KEY or OPENAI_BASE_URL for a real model)\n');

await runPlainRoundTripDemo(real);
await runReturnDirectDemo(real, console.log, real ? () => new Date() : undefined);
await runToolContextDemo(real);
await runToolSearchDemo(real);
await runMemoryDemo(real);
console.log('== Tool argument augmentation: the model’s reasoning with every call ==');
await runToolArgumentAugmentation(real);
console.log('');
await runApprovalDemo(real);
await runMcpDemo(real);
await runTracePageDemo(real);
