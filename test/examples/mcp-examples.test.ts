import { describe, expect, it } from 'vitest';
import { runMcpCombine, scriptedMcpCombineModel } from '../../examples/mcp-combine.js';
import { runMcpConsume, scriptedMcpConsumeModel } from '../../examples/mcp-consume.js';
import { runMcpExpose } from '../../examples/mcp-expose.js';

const quiet = () => {};

describe('MCP examples (real servers)', () => {
  it('consumes server-everything by config: lazy, the model calls echo', async () => {
    const model = scriptedMcpConsumeModel();
    const result = await runMcpConsume(model, quiet);
    expect(result.startedBeforeFirstRequest).toBe(false);
    expect(result.offered).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    expect(result.answer).toBe('The server echoed: hello MCP');
    const toolMessage = model.prompts[1]?.messages.at(-1);
    expect(toolMessage).toMatchObject({
      role: 'tool',
      responses: [{ id: 'call-1', name: 'echo', responseData: 'Echo: hello MCP' }],
    });
  }, 60_000);

  it('exposes an @mcpTool weather tool over Streamable HTTP on 127.0.0.1', async () => {
    const result = await runMcpExpose(quiet);
    expect(new URL(result.url).hostname).toBe('127.0.0.1');
    expect(result.listed).toEqual([
      {
        name: 'getWeather',
        description: 'Get the current weather for a given city',
        annotations: { readOnlyHint: true },
      },
    ]);
    expect(result.answer).toBe('"It is 18 °C and sunny in Copenhagen."');
  });

  it('combines a local @tool and an MCP tool in one .tools() call and one batch', async () => {
    const result = await runMcpCombine(scriptedMcpCombineModel(), quiet);
    expect(result.toolResponses.map(({ name, responseData }) => [name, responseData])).toEqual([
      ['toFahrenheit', '68'],
      ['get-sum', expect.stringContaining('42')],
    ]);
    expect(result.answer).toBe('20 °C is 68 °F, and 20 + 22 = 42.');
  }, 60_000);
});
