import { describe, expect, it } from 'vitest';
import {
  ChatClient,
  CONVERSATION_ID,
  InvalidArgumentError,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
} from '../../src/index.js';
import { ScriptedChatModel, textResponse } from '../../src/testing/index.js';

// A chat client with memory and a request without a conversation id: the error says what is
// missing and both ways to give one, and each way it names works as written.

describe('a request without a conversation id', () => {
  it('is refused before the model is called, with both ways to give one', async () => {
    const model = new ScriptedChatModel([textResponse('never')]);
    const memoryAdvisor = new MessageChatMemoryAdvisor({
      chatMemory: new MessageWindowChatMemory(),
    });
    const client = ChatClient.create(model, { advisors: [memoryAdvisor] });
    const error = await client
      .prompt('Hello')
      .call()
      .content()
      .then(
        () => undefined,
        (caught: unknown) => caught as Error,
      );
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error?.message).toMatch(
      /^The chat memory advisor needs a conversation id, and this request has none/,
    );
    expect(error?.message).toContain(
      ".advisors((a) => a.param(CONVERSATION_ID, 'conversation-id'))",
    );
    expect(error?.message).toContain(
      "ChatClient.create(model, { advisors: [memoryAdvisor, (a) => a.param(CONVERSATION_ID, 'default')] })",
    );
    // The reference's words, for those who search them.
    expect(error?.message).toContain('conversationId cannot be null');
    expect(model.callCount).toBe(0);
  });

  it('works with either fix the message names', async () => {
    const chatMemory = new MessageWindowChatMemory();
    const memoryAdvisor = new MessageChatMemoryAdvisor({ chatMemory });
    const model = new ScriptedChatModel([textResponse('One'), textResponse('Two')]);

    const perRequest = ChatClient.create(model, { advisors: [memoryAdvisor] });
    await perRequest
      .prompt('First')
      .advisors((a) => a.param(CONVERSATION_ID, 'conversation-id'))
      .call()
      .content();
    expect((await chatMemory.get('conversation-id')).map((m) => m.role)).toEqual([
      'user',
      'assistant',
    ]);

    const withDefault = ChatClient.create(model, {
      advisors: [memoryAdvisor, (a) => a.param(CONVERSATION_ID, 'default')],
    });
    await withDefault.prompt('Second').call().content();
    expect((await chatMemory.get('default')).map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
