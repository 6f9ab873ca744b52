import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FinishReason } from '../model/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { tool } from '../tools/tool.js';
import { runRequest } from './__tests__/run-request.js';
import { ChatClient } from './chat-client.js';

const searchDocs = tool({
  name: 'searchDocs',
  description: 'Search the documentation',
  inputSchema: z.object({ query: z.string() }),
  returnDirect: true,
  execute: ({ query }) => `Passages about ${query}`,
});

describe.each(['call', 'stream'] as const)('returnDirect through the ChatClient (%s)', (mode) => {
  it('ends the turn with the tool results when every call of the batch ran', async () => {
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'c1', name: 'searchDocs', arguments: { query: 'limits' } }]),
    ]);
    const response = await ChatClient.create(model)
      .prompt('Docs on limits?')
      .tools(searchDocs)
      .call()
      .chatResponse();
    expect(response?.results[0]?.output.text).toBe('"Passages about limits"');
    expect(response?.results[0]?.metadata.finishReason).toBe(FinishReason.RETURN_DIRECT);
    expect(model.callCount).toBe(1);
  });

  it.each([
    ['an unknown tool', { id: 'c2', name: 'ghost', arguments: {} }],
    ['invalid arguments', { id: 'c2', name: 'searchDocs', arguments: { query: 7 } }],
  ])('gives the model the results when the batch also holds %s', async (_label, rejected) => {
    const model = new ScriptedChatModel([
      toolCallResponse([
        { id: 'c1', name: 'searchDocs', arguments: { query: 'limits' } },
        rejected,
      ]),
      textResponse('Here is what the docs say about limits.'),
    ]);
    const answer = await runRequest(
      ChatClient.create(model).prompt('Docs on limits?').tools(searchDocs),
      mode,
    );
    expect(answer).toBe('Here is what the docs say about limits.');
    expect(answer).not.toContain('not executed');
    const results = model.prompts[1]?.messages.at(-1);
    expect(results).toMatchObject({
      role: 'tool',
      responses: [
        { id: 'c1', responseData: '"Passages about limits"' },
        { id: 'c2', isError: true },
      ],
    });
  });
});
