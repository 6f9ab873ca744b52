// The client the conformance suite's client scenarios run: toolloop's McpToolCallbackProvider from
// the built package (dist/), on the Node that runs the tests. The suite appends the server URL.
import { McpToolCallbackProvider } from '../../dist/mcp/index.js';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
const provider = new McpToolCallbackProvider({ connections: { conformance: { url } } });
try {
  const tools = await provider.getToolCallbacks();
  if (scenario === 'tools_call') {
    const addNumbers = tools.find((tool) => tool.definition.name === 'add_numbers');
    if (addNumbers === undefined) throw new Error('add_numbers is not listed');
    console.log(await addNumbers.call(JSON.stringify({ a: 5, b: 3 })));
  }
} finally {
  await provider.close();
}
