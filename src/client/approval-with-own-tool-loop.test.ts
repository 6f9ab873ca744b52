import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pendingApprovalOf, ToolApprovalPolicies } from '../approval/index.js';
import { InvalidArgumentError } from '../errors/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { ToolCallingAdvisor } from '../tool-calling/tool-calling-advisor.js';
import { ToolSearchToolCallingAdvisor } from '../tool-search/tool-search-tool-calling-advisor.js';
import { tool } from '../tools/tool.js';
import { ChatClient } from './chat-client.js';

const KEY = 'an approval signing key of at least 32 bytes';

function deletion() {
  const deleted: string[] = [];
  const deleteFile = tool({
    name: 'deleteFile',
    description: 'Delete one file',
    inputSchema: z.object({ path: z.string() }),
    destructive: true,
    execute: ({ path }) => {
      deleted.push(path);
      return `Deleted ${path}`;
    },
  });
  return { deleted, deleteFile };
}

const approval = { policy: ToolApprovalPolicies.destructive, signingKey: KEY };

describe('a client approval policy beside a tool loop of your own', () => {
  it.each([
    ['ToolCallingAdvisor', () => new ToolCallingAdvisor()],
    ['ToolSearchToolCallingAdvisor', () => new ToolSearchToolCallingAdvisor()],
  ])('refuses approval with a %s among the advisors, saying where approval goes', (name, make) => {
    const { deleteFile } = deletion();
    const create = () =>
      ChatClient.create(new ScriptedChatModel(), {
        tools: [deleteFile],
        advisors: [make()],
        approval,
      });
    expect(create).toThrow(InvalidArgumentError);
    expect(create).toThrow(
      new RegExp(`${name}.*toolCallingAdvisor: .*or give .approval. to the advisor's own options`),
    );
  });

  it('refuses a toolCallingAdvisor option that a tool loop among the advisors would replace', () => {
    expect(() =>
      ChatClient.create(new ScriptedChatModel(), {
        toolCallingAdvisor: new ToolCallingAdvisor({ maxIterations: 3 }),
        advisors: [new ToolSearchToolCallingAdvisor()],
      }),
    ).toThrow(/toolCallingAdvisor option would never be used/);
  });

  it('applies the client approval to the loop given as toolCallingAdvisor', async () => {
    const { deleted, deleteFile } = deletion();
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'deleteFile', arguments: { path: '/tmp/x' } }]),
      textResponse('never'),
    ]);
    const client = ChatClient.create(model, {
      tools: [deleteFile],
      toolCallingAdvisor: new ToolCallingAdvisor({ maxIterations: 5 }),
      approval,
    });
    const response = await client.prompt('Delete /tmp/x').call();
    expect(pendingApprovalOf(response)).toBeDefined();
    expect(deleted).toEqual([]);
  });

  it('accepts a request tool loop that has an approval of its own', async () => {
    const { deleted, deleteFile } = deletion();
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'deleteFile', arguments: { path: '/tmp/x' } }]),
      textResponse('never'),
    ]);
    const client = ChatClient.create(model, { tools: [deleteFile], approval });
    const response = await client
      .prompt('Delete /tmp/x')
      .advisors(new ToolCallingAdvisor({ approval }))
      .call();
    expect(pendingApprovalOf(response)).toBeDefined();
    expect(deleted).toEqual([]);
  });
});
