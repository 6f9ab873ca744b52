// `npm start`: what `toolloop demo` shows (the reference article's scenarios), then tool argument
// augmentation and the MCP examples, against ScriptedChatModel, or against a real
// OpenAI-compatible model when OPENAI_API_KEY or OPENAI_BASE_URL is set.
import { runToolArgumentAugmentation } from '../examples/tool-argument-augmentation.js';
import { realModelFromEnvironment, runDemo } from '../src/demo/run-demo.js';
import { runApprovalDemo } from './approval-demo.js';
import { runMcpDemo } from './mcp-demo.js';
import { runTracePageDemo } from './trace-page-demo.js';

const real = await realModelFromEnvironment();
await runDemo(real);
console.log('== Tool argument augmentation: the model’s reasoning with every call ==');
await runToolArgumentAugmentation(real);
console.log('');
await runApprovalDemo(real);
await runMcpDemo(real);
await runTracePageDemo(real);
