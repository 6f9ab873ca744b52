import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ChatClient } from '../client/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { tool } from '../tools/tool.js';

const SECRET_ARGUMENT = 'SENTINEL-ENV-ARGUMENT-4b1e';
const SECRET_CONTEXT = 'SENTINEL-ENV-CONTEXT-90aa';

async function runTurn(): Promise<string[]> {
  const lines: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => {
    lines.push(parts.map(String).join(' '));
  });
  const echo = tool({
    name: 'echo',
    description: 'Echoes',
    inputSchema: z.object({ word: z.string() }),
    execute: ({ word }) => word,
  });
  const model = new ScriptedChatModel([
    toolCallResponse([{ name: 'echo', arguments: { word: SECRET_ARGUMENT } }]),
    textResponse('done'),
  ]);
  await ChatClient.create(model, { tools: [echo], toolContext: { secret: SECRET_CONTEXT } })
    .prompt('go')
    .call()
    .content();
  return lines;
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('the debug log switched on by the environment', () => {
  it('TOOLLOOP_DEBUG=1 logs the turn of any client, without arguments or context', async () => {
    vi.stubEnv('TOOLLOOP_DEBUG', '1');
    const lines = await runTurn();
    const text = lines.join('\n');
    expect(text).toContain('[toolloop] turn started');
    expect(text).toContain('[toolloop] model call 1: 1 tools offered');
    expect(text).toContain('[toolloop] model called tool echo');
    expect(text).toContain('[toolloop] turn finished');
    expect(text).not.toContain(SECRET_ARGUMENT);
    expect(text).not.toContain(SECRET_CONTEXT);
  });

  it('DEBUG=toolloop logs too; nothing is logged when neither is set', async () => {
    vi.stubEnv('DEBUG', 'toolloop');
    expect((await runTurn()).join('\n')).toContain('[toolloop] turn started');
    vi.restoreAllMocks();
    vi.stubEnv('DEBUG', '');
    vi.stubEnv('TOOLLOOP_DEBUG', '');
    expect(await runTurn()).toEqual([]);
  });
});
