import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatClient, createToolCallingManager, ToolCallingAdvisor, tool } from '../index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { type DebugLogger, debugLogListener } from './debug-log-listener.js';

const SECRET = {
  argument: 'SENTINEL-LOG-ARGUMENT-5e1c',
  context: 'SENTINEL-LOG-CONTEXT-90ab',
};

/** A turn whose tool throws, with its argument and a context value in the error's message. */
async function failingTurn(logContent: boolean): Promise<string> {
  const lines: unknown[] = [];
  const logger: DebugLogger = { debug: (details, message) => lines.push({ details, message }) };
  const charge = tool({
    name: 'charge',
    description: 'Charges an account',
    inputSchema: z.object({ account: z.string() }),
    execute: ({ account }, context) => {
      throw new Error(`no account ${account} for tenant ${String(context.context.tenant)}`);
    },
  });
  const client = ChatClient.create(
    new ScriptedChatModel([
      toolCallResponse([{ name: 'charge', arguments: { account: SECRET.argument } }]),
      textResponse('never asked'),
    ]),
    {
      tools: [charge],
      toolCallingAdvisor: new ToolCallingAdvisor({
        toolCallingManager: createToolCallingManager({ throwExceptionOnError: true }),
      }),
      listeners: [debugLogListener({ logger, logContent })],
    },
  );
  await expect(
    client.prompt('Charge it').toolContext({ tenant: SECRET.context }).call().content(),
  ).rejects.toMatchObject({ code: 'TOOL_EXECUTION_FAILED' });
  return JSON.stringify(lines);
}

describe('debugLogListener on a real ChatClient turn', () => {
  it("keeps a failed turn's error message, which may quote arguments and context, out of the log unless logContent is on", async () => {
    const quiet = await failingTurn(false);
    expect(quiet).toContain('turn failed: TOOL_EXECUTION_FAILED');
    expect(quiet).toContain('"type":"ToolExecutionError"');
    expect(quiet).not.toContain(SECRET.argument);
    expect(quiet).not.toContain(SECRET.context);

    const loud = await failingTurn(true);
    expect(loud).toContain(SECRET.argument);
  });
});
