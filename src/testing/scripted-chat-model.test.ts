import { describe, expect, it } from 'vitest';
import { IllegalStateError, InvalidArgumentError } from '../errors/index.js';
import { userMessage } from '../messages/index.js';
import {
  aggregateChatResponses,
  type ChatResponse,
  createPrompt,
  hasToolCalls,
  responseText,
} from '../model/index.js';
import type { ToolCallback } from '../tools/tool-callback.js';
import { ScriptedChatModel, type ScriptedTurn } from './scripted-chat-model.js';
import { streamedResponse, textResponse, toolCallResponse } from './scripted-response.js';

async function collect(stream: AsyncIterable<ChatResponse>): Promise<ChatResponse[]> {
  const chunks: ChatResponse[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };

describe('ScriptedChatModel', () => {
  it('returns the queued responses in order and records every prompt', async () => {
    const model = new ScriptedChatModel([textResponse('first'), textResponse('second')]);
    expect(model.remaining).toBe(2);
    const first = await model.call(createPrompt([userMessage('one')]));
    const second = await model.call(createPrompt([userMessage('two')], { temperature: 0.2 }));
    expect(responseText(first)).toBe('first');
    expect(responseText(second)).toBe('second');
    expect(model.callCount).toBe(2);
    expect(model.remaining).toBe(0);
    expect(model.prompts.map((prompt) => prompt.messages)).toEqual([
      [{ role: 'user', text: 'one' }],
      [{ role: 'user', text: 'two' }],
    ]);
    expect(model.prompts[1]?.options).toEqual({ temperature: 0.2 });
  });

  it('keeps a copy of the messages but the options (with their tool functions) as given', async () => {
    const model = new ScriptedChatModel([textResponse('ok')]);
    const tool: ToolCallback = {
      definition: { name: 't', description: 'd', inputSchema: { type: 'object' } },
      metadata: {},
      call: async () => 'x',
    };
    const messages = [userMessage('original')];
    const options = { toolCallbacks: [tool] };
    await model.call(createPrompt(messages, options));
    messages.push(userMessage('added later'));
    (messages[0] as { text: string }).text = 'changed';
    expect(model.prompts[0]?.messages).toEqual([{ role: 'user', text: 'original' }]);
    expect(model.prompts[0]?.options.toolCallbacks?.[0]).toBe(tool);
  });

  it('throws an IllegalStateError naming the call and the scripted count when the queue is empty', async () => {
    const model = new ScriptedChatModel([textResponse('a'), textResponse('b')]);
    await model.call(createPrompt([userMessage('1')]));
    await model.call(createPrompt([userMessage('2')]));
    const failure = model.call(createPrompt([userMessage('3')]));
    await expect(failure).rejects.toBeInstanceOf(IllegalStateError);
    await expect(model.call(createPrompt([]))).rejects.toThrow(
      'ScriptedChatModel: no scripted response left for call 4 (2 were scripted)',
    );
    expect(model.callCount).toBe(4);
  });

  it('refuses a lone turn not wrapped in an array, saying so', () => {
    const lone = (() => textResponse('hi')) as unknown as ScriptedTurn[];
    expect(() => new ScriptedChatModel(lone)).toThrow(InvalidArgumentError);
    expect(() => new ScriptedChatModel(lone)).toThrow('wrap a single response or function in [ ]');
  });

  it('throws scripted errors and answers with functions of the prompt', async () => {
    const model = new ScriptedChatModel([
      new Error('provider down'),
      (prompt, info) => textResponse(`echo ${prompt.messages.length} at call ${info.callNumber}`),
    ]);
    await expect(model.call(createPrompt([userMessage('x')]))).rejects.toThrow('provider down');
    const answer = await model.call(createPrompt([userMessage('x'), userMessage('y')]));
    expect(responseText(answer)).toBe('echo 2 at call 2');
  });

  it('does not count a call whose signal is already aborted', async () => {
    const model = new ScriptedChatModel([textResponse('never')]);
    const controller = new AbortController();
    controller.abort();
    await expect(
      model.call(createPrompt([userMessage('x')]), { signal: controller.signal }),
    ).rejects.toThrow();
    expect(model.callCount).toBe(0);
    expect(model.remaining).toBe(1);
  });

  it('enqueues more turns and counts them as scripted', async () => {
    const model = new ScriptedChatModel();
    model.enqueue(textResponse('late'));
    expect(responseText(await model.call(createPrompt([])))).toBe('late');
    await expect(model.call(createPrompt([]))).rejects.toThrow('(1 was scripted)');
  });

  it('streams text in deltas with usage, finish reason and tool calls in the last chunk', async () => {
    const response = toolCallResponse(
      [{ name: 'current_weather', arguments: { city: 'Boston' } }],
      { text: 'Checking the weather', usage, id: 'r-1' },
    );
    const model = new ScriptedChatModel([streamedResponse(response, { textChunks: 4 })]);
    const chunks = await collect(model.stream(createPrompt([userMessage('weather?')])));
    expect(chunks).toHaveLength(4);
    expect(chunks.map((chunk) => chunk.results[0]?.output.text).join('')).toBe(
      'Checking the weather',
    );
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.metadata.usage).toBeUndefined();
      expect(hasToolCalls(chunk)).toBe(false);
      expect(chunk.results[0]?.metadata.finishReason).toBeNull();
      expect(chunk.metadata.id).toBe('r-1');
    }
    const last = chunks.at(-1);
    expect(last?.metadata.usage).toEqual(usage);
    expect(last?.results[0]?.output.toolCalls).toEqual([
      { id: 'call-1', name: 'current_weather', arguments: '{"city":"Boston"}' },
    ]);
    expect(aggregateChatResponses(chunks)).toEqual(response);
    expect(model.callCount).toBe(1);
  });

  it('streams tool-call arguments in pieces before the complete calls when asked to', async () => {
    const response = toolCallResponse(
      [
        { name: 'current_weather', arguments: { city: 'Boston' } },
        { name: 'no_arguments', arguments: '' },
      ],
      { text: 'Checking', usage, id: 'r-1' },
    );
    const model = new ScriptedChatModel([
      streamedResponse(response, { textChunks: 2, argumentChunks: 3 }),
    ]);
    const chunks = await collect(model.stream(createPrompt([userMessage('weather?')])));
    const deltas = chunks.flatMap((chunk) => chunk.results[0]?.toolCallDeltas ?? []);
    expect(deltas).toEqual([
      { id: 'call-1', index: 0, name: 'current_weather', arguments: '{"city' },
      { id: 'call-1', index: 0, arguments: '":"Bos' },
      { id: 'call-1', index: 0, arguments: 'ton"}' },
      { id: 'call-2', index: 1, name: 'no_arguments', arguments: '' },
    ]);
    const deltaChunks = chunks.filter((chunk) => chunk.results[0]?.toolCallDeltas);
    for (const chunk of deltaChunks) {
      expect(hasToolCalls(chunk)).toBe(false);
      expect(chunk.metadata).toEqual({ id: 'r-1' });
    }
    expect(chunks.at(-1)?.results[0]?.toolCallDeltas).toBeUndefined();
    expect(chunks.indexOf(deltaChunks.at(-1) as ChatResponse)).toBe(chunks.length - 2);
    expect(aggregateChatResponses(chunks)).toEqual(response);
    const plain = new ScriptedChatModel([response], { argumentChunks: 2 });
    const plainChunks = await collect(plain.stream(createPrompt([])));
    expect(plainChunks.flatMap((chunk) => chunk.results[0]?.toolCallDeltas ?? [])).toHaveLength(3);
  });

  it('streams a tool-call-only response as one chunk and uses the default chunking otherwise', async () => {
    const model = new ScriptedChatModel(
      [toolCallResponse([{ name: 'a' }, { name: 'b', id: 'x' }]), textResponse('Hello world!')],
      { textChunks: 2 },
    );
    const toolChunks = await collect(model.stream(createPrompt([])));
    expect(toolChunks).toHaveLength(1);
    expect(toolChunks[0]?.results[0]?.output.toolCalls.map((call) => call.id)).toEqual([
      'call-1',
      'x',
    ]);
    const textChunks = await collect(model.stream(createPrompt([])));
    expect(textChunks.map((chunk) => chunk.results[0]?.output.text)).toEqual(['Hello ', 'world!']);
  });

  it('stops a stream between chunks when the signal aborts', async () => {
    const model = new ScriptedChatModel([
      streamedResponse(textResponse('abcdef'), { textChunks: 6 }),
    ]);
    const controller = new AbortController();
    const seen: string[] = [];
    await expect(async () => {
      for await (const chunk of model.stream(createPrompt([]), { signal: controller.signal })) {
        seen.push(chunk.results[0]?.output.text ?? '');
        if (seen.length === 2) controller.abort();
      }
    }).rejects.toThrow();
    expect(seen).toEqual(['a', 'b']);
  });

  it('exposes default options', () => {
    const model = new ScriptedChatModel([], { defaultOptions: { model: 'scripted-1' } });
    expect(model.defaultOptions).toEqual({ model: 'scripted-1' });
  });
});
