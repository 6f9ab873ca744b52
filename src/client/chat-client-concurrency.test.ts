import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolResponseMessage, UserMessage } from '../messages/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { tool } from '../tools/tool.js';
import { ChatClient } from './chat-client.js';

const CONVERSATIONS = 200;

describe('ChatClient concurrency', () => {
  it('runs 200 concurrent conversations through one client without mixing tool contexts or results', async () => {
    const whoami = tool({
      name: 'whoami',
      description: 'The tenant of the current caller',
      inputSchema: z.object({}),
      execute: async (_input, context) => {
        const tenant = String(context.context.tenant);
        // Different delays make the conversations interleave.
        await new Promise((resolve) => setTimeout(resolve, Number(tenant.split('-')[1]) % 7));
        return { tenant, callId: context.toolCallId };
      },
    });
    // Every turn answers from its own prompt, so the shared queue's order does not matter.
    const turn = (prompt: { messages: readonly unknown[] }) => {
      const last = prompt.messages.at(-1) as UserMessage | ToolResponseMessage;
      const question = (
        prompt.messages.find((m) => (m as UserMessage).role === 'user') as UserMessage
      ).text;
      if (last.role === 'tool') {
        return textResponse(`${question} -> ${last.responses[0]?.responseData}`);
      }
      return toolCallResponse([{ id: `call-${question}`, name: 'whoami' }]);
    };
    const model = new ScriptedChatModel(Array.from({ length: CONVERSATIONS * 2 }, () => turn));
    const client = ChatClient.create(model, { tools: [whoami] });

    const answers = await Promise.all(
      Array.from({ length: CONVERSATIONS }, async (_, index) => {
        const tenant = `tenant-${index}`;
        const spec = client.prompt(tenant).toolContext({ tenant });
        if (index % 2 === 0) return spec.call().content();
        let text = '';
        for await (const delta of spec.stream().content()) text += delta;
        return text;
      }),
    );

    answers.forEach((answer, index) => {
      const tenant = `tenant-${index}`;
      expect(answer).toBe(`${tenant} -> {"tenant":"${tenant}","callId":"call-${tenant}"}`);
    });
    expect(model.callCount).toBe(CONVERSATIONS * 2);
    expect(model.remaining).toBe(0);
  });
});
