import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  mcpCombineScript,
  mcpConsumeScript,
  mcpSdkInstalled,
  runMcpCombineDemo,
  runMcpConsumeDemo,
  runMcpExposeDemo,
} from '../../src/demo/mcp-demo.js';
import { projectRoot } from '../package/packed-package.js';

// The MCP scenarios start `toolloop mcp serve` on the built demo tools module, as the installed
// `toolloop demo` does: npm test builds dist first.
const files = {
  cliPath: join(projectRoot, 'dist', 'cli', 'main.js'),
  toolsModule: join(projectRoot, 'dist', 'demo', 'mcp-demo-tools.js'),
};
beforeAll(() => {
  for (const file of Object.values(files)) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build`);
  }
});

describe('the MCP scenarios of the demo', () => {
  it('sees the MCP SDK (a dev dependency here)', async () => {
    expect(await mcpSdkInstalled()).toBe(true);
  });

  it('consumes toolloop mcp serve in a child process: the model calls its order tool', async () => {
    const lines: string[] = [];
    const model = mcpConsumeScript();
    const result = await runMcpConsumeDemo(model, (line) => lines.push(line), files);
    expect(result.offered).toEqual(['add', 'get_order_status']);
    expect(result.answer).toContain('A-1001 has shipped');
    const toolMessage = model.prompts[1]?.messages.at(-1);
    expect(toolMessage).toMatchObject({
      role: 'tool',
      responses: [{ id: 'call-order', name: 'get_order_status' }],
    });
    expect(JSON.stringify(toolMessage)).toContain('SHIPPED');
    expect(lines.join('\n')).toContain('mcp serve');
  }, 60_000);

  it('exposes the weather tool over Streamable HTTP and calls it with an MCP client', async () => {
    const result = await runMcpExposeDemo(() => {});
    expect(new URL(result.url).hostname).toBe('127.0.0.1');
    expect(result.listed).toEqual(['current_weather']);
    expect(result.answer).toContain('14.5');
  });

  it('runs a local and an MCP tool in one batch', async () => {
    const result = await runMcpCombineDemo(mcpCombineScript(), () => {}, files);
    expect(result.toolResponses).toEqual([
      ['current_weather', expect.stringContaining('Overcast')],
      ['add', '42'],
    ]);
    expect(result.answer).toBe('Boston is at 14.5 °C and overcast, and 20 + 22 = 42.');
  }, 60_000);
});
