import { describe, expect, it } from 'vitest';
import type {
  CallAdvisor,
  CallAdvisorChain,
  ChatClientRequest,
  ChatClientResponse,
  StreamAdvisor,
  StreamAdvisorChain,
} from '../advisors/index.js';
import { HIGHEST_PRECEDENCE, TOOL_LOOP_TURN_ID } from '../advisors/index.js';
import { InvalidArgumentError, ToolDefinitionError } from '../errors/index.js';
import { assistantMessage, userMessage } from '../messages/index.js';
import type { ChatModel, ChatOptions, ChatResponse } from '../model/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { tool } from '../tools/tool.js';
import type { ToolCallback, ToolCallbackProvider } from '../tools/tool-callback.js';
import { runRequest } from './__tests__/run-request.js';
import { AdvisorParams } from './advisor-params.js';
import { ChatClient } from './chat-client.js';

function echoTool(name: string): ToolCallback {
  return tool({ name, description: `The ${name} tool`, execute: () => name });
}

/** Records each request that reaches it, then passes it on. Sits just before the model. */
class RecordingAdvisor implements CallAdvisor, StreamAdvisor {
  readonly name = 'Recording Advisor';
  readonly requests: ChatClientRequest[] = [];
  constructor(readonly order = 1_000_000) {}
  adviseCall(request: ChatClientRequest, chain: CallAdvisorChain): Promise<ChatClientResponse> {
    this.requests.push(request);
    return chain.nextCall(request);
  }
  adviseStream(request: ChatClientRequest, chain: StreamAdvisorChain) {
    this.requests.push(request);
    return chain.nextStream(request);
  }
}

function noAutoRegister() {
  return AdvisorParams.toolCallingAdvisorAutoRegister(false);
}

describe.each(['call', 'stream'] as const)('ChatClient request assembly (%s)', (mode) => {
  it('orders messages system, then .messages(), then user, and skips empty system text', async () => {
    const model = new ScriptedChatModel([textResponse('a'), textResponse('b')]);
    const client = ChatClient.create(model, { system: 'Be brief.' });
    await runRequest(
      client.prompt('Now?').messages(userMessage('Earlier'), [assistantMessage('Earlier answer')]),
      mode,
    );
    expect(model.prompts[0]?.messages).toEqual([
      { role: 'system', text: 'Be brief.' },
      { role: 'user', text: 'Earlier' },
      { role: 'assistant', text: 'Earlier answer', toolCalls: [] },
      { role: 'user', text: 'Now?' },
    ]);
    await runRequest(
      client
        .prompt()
        .system('  ')
        .user({
          text: 'Look',
          media: [{ mimeType: 'image/png', data: 'AA==' }],
          metadata: { k: 1 },
        }),
      mode,
    );
    expect(model.prompts[1]?.messages).toEqual([
      {
        role: 'user',
        text: 'Look',
        media: [{ mimeType: 'image/png', data: 'AA==' }],
        metadata: { k: 1 },
      },
    ]);
  });

  it('merges options: model defaults, then client defaults, then the call', async () => {
    const model = new ScriptedChatModel<ChatOptions & { seed?: number }>([textResponse('a')], {
      defaultOptions: { model: 'm-1', temperature: 0.1, maxTokens: 100 },
    });
    const client = ChatClient.create(model, { options: { temperature: 0.5, seed: 7 } });
    await runRequest(client.prompt('x').options({ maxTokens: 5 }).options({ seed: 8 }), mode);
    expect(model.prompts[0]?.options).toEqual({
      model: 'm-1',
      temperature: 0.5,
      maxTokens: 5,
      seed: 8,
    });
  });

  it('replaces option-level tool callbacks with the request tools (.options(tool1).tools(tool2) → [tool2])', async () => {
    const tool1 = echoTool('tool1');
    const tool2 = echoTool('tool2');
    const model = new ScriptedChatModel([textResponse('a'), textResponse('b'), textResponse('c')]);
    const client = ChatClient.create(model);
    await runRequest(
      client
        .prompt('x')
        .options({ toolCallbacks: [tool1] })
        .tools(tool2),
      mode,
    );
    const offered = (index: number) =>
      model.prompts[index]?.options.toolCallbacks?.map((callback) => callback.definition);
    expect(offered(0)).toEqual([tool2.definition]);
    await runRequest(client.prompt('x').options({ toolCallbacks: [tool1] }), mode);
    expect(offered(1)).toEqual([tool1.definition]);
    await runRequest(client.prompt('x'), mode);
    expect(model.prompts[2]?.options.toolCallbacks).toBeUndefined();
  });

  it('merges tool context: model default, options, client default, call (call wins)', async () => {
    const model = new ScriptedChatModel(
      [toolCallResponse([{ name: 'readContext' }]), textResponse('a')],
      // 0.x compatibility: a model's default tool context still reaches the tools (never the
      // model); the type no longer offers it.
      // @ts-expect-error toolContext is not a model option
      { defaultOptions: { toolContext: { fromModel: 1, shared: 'model' } } },
    );
    const seen: Record<string, unknown>[] = [];
    const readContext = tool({
      name: 'readContext',
      execute: (_input, context) => {
        seen.push({ ...context.context });
      },
    });
    const client = ChatClient.create(model, { toolContext: { fromClient: 3, shared: 'client' } });
    await runRequest(
      client
        .prompt('x')
        .tools(readContext)
        .options({ toolContext: { key1: 'v1', shared: 'options' } })
        .toolContext({ key2: 'v2' })
        .toolContext({ shared: 'call' }),
      mode,
    );
    // The model never receives the context; the tool receives all of it.
    for (const prompt of model.prompts) expect(prompt.options).not.toHaveProperty('toolContext');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual({
      fromModel: 1,
      key1: 'v1',
      fromClient: 3,
      key2: 'v2',
      shared: 'call',
    });
  });

  it('rejects a tool context that is not a plain object, without echoing it', () => {
    const client = ChatClient.create(new ScriptedChatModel());
    const spec = client.prompt('x');
    expect(() => spec.toolContext(null as never)).toThrow(
      new InvalidArgumentError('context cannot be null'),
    );
    expect(() => spec.toolContext(undefined as never)).toThrow('context cannot be null');
    expect(() => spec.toolContext(['secret'] as never)).toThrow('context must be a plain object');
    expect(() => spec.toolContext(new Map([['k', 'secret']]) as never)).toThrow(
      InvalidArgumentError,
    );
    expect(() => spec.toolContext({ '': 'secret' })).toThrow(
      new InvalidArgumentError('context key cannot be null or empty'),
    );
    // Departure: a null value is plain data here; the reference rejects it.
    expect(() => spec.toolContext({ tenantId: null })).not.toThrow();
    expect(() =>
      ChatClient.create(new ScriptedChatModel(), { toolContext: 'secret' as never }),
    ).toThrow(InvalidArgumentError);
  });

  it('sends the union of default and call tools, callbacks first, listing providers on every request', async () => {
    let listings = 0;
    const provider: ToolCallbackProvider = {
      getToolCallbacks: async () => {
        listings++;
        return [echoTool(`provided_${listings}`)];
      },
    };
    const model = new ScriptedChatModel([textResponse('a'), textResponse('b')]);
    const client = ChatClient.create(model, { tools: [provider, echoTool('default_tool')] });
    const spec = client.prompt('x').tools([echoTool('call_tool')]);
    await runRequest(spec, mode);
    await runRequest(spec, mode);
    const names = model.prompts.map((prompt) =>
      prompt.options.toolCallbacks?.map((callback) => callback.definition.name),
    );
    expect(names).toEqual([
      ['default_tool', 'call_tool', 'provided_1'],
      ['default_tool', 'call_tool', 'provided_2'],
    ]);
    expect(listings).toBe(2);
  });

  it('fails with a ToolDefinitionError naming the tool when names collide, only when the request runs', async () => {
    const model = new ScriptedChatModel([textResponse('never')]);
    const client = ChatClient.create(model, { tools: [echoTool('lookup')] });
    const spec = client.prompt('x').tools(echoTool('lookup'));
    const failure = runRequest(spec, mode);
    await expect(failure).rejects.toBeInstanceOf(ToolDefinitionError);
    await expect(runRequest(spec, mode)).rejects.toThrow(
      'Multiple tools with the same name (lookup) found in ToolCallingChatOptions',
    );
    expect(model.callCount).toBe(0);
  });

  it('converts @tool objects when .tools() is called, so an object without tools throws there', () => {
    const client = ChatClient.create(new ScriptedChatModel());
    expect(() => client.prompt('x').tools({ notATool: () => 1 })).toThrow();
  });

  it('copies advisor params into the request context', async () => {
    const recorder = new RecordingAdvisor();
    const model = new ScriptedChatModel([textResponse('a')]);
    const client = ChatClient.create(model, {
      advisors: [recorder, (a) => a.param('tenant', 'acme').param('shared', 'client')],
    });
    await runRequest(
      client.prompt('x').advisors((a) => a.params({ shared: 'call', conversation: 'c-1' })),
      mode,
    );
    expect(recorder.requests[0]?.context).toEqual({
      tenant: 'acme',
      shared: 'call',
      conversation: 'c-1',
      // The recorder sits inside the tool loop, which adds its turn id.
      [TOOL_LOOP_TURN_ID]: expect.any(String),
    });
    expect(JSON.stringify(model.prompts[0]?.messages)).not.toContain('acme');
  });

  it('keeps specs immutable: derived specs do not change their base, and a spec runs twice', async () => {
    const model = new ScriptedChatModel([textResponse('1'), textResponse('2'), textResponse('3')]);
    const recorder = new RecordingAdvisor();
    const client = ChatClient.create(model, { advisors: [recorder] });
    const base = client.prompt().system('S');
    const first = base.user('first');
    const second = base.user('second').toolContext({ a: 1 });
    await runRequest(first, mode);
    await runRequest(second, mode);
    await runRequest(first, mode);
    expect(
      model.prompts.map((prompt) =>
        prompt.messages.map((message) => message.role === 'user' && message.text),
      ),
    ).toEqual([
      [false, 'first'],
      [false, 'second'],
      [false, 'first'],
    ]);
    const toolContexts = recorder.requests.map((request) => request.prompt.options.toolContext);
    expect(toolContexts).toEqual([undefined, { a: 1 }, undefined]);
  });

  it('derives clients with mutate() and leaves the original unchanged', async () => {
    const model = new ScriptedChatModel([textResponse('a'), textResponse('b')]);
    const client = ChatClient.create(model, { system: 'Original', tools: [echoTool('t1')] });
    const derived = client.mutate({
      system: 'Derived',
      tools: [...(client.defaults.tools ?? []), echoTool('t2')],
    });
    await runRequest(derived.prompt('x').advisors(noAutoRegister()), mode);
    await runRequest(client.prompt('x').advisors(noAutoRegister()), mode);
    expect(model.prompts[0]?.messages[0]).toEqual({ role: 'system', text: 'Derived' });
    expect(model.prompts[0]?.options.toolCallbacks?.map((t) => t.definition.name)).toEqual([
      't1',
      't2',
    ]);
    expect(model.prompts[1]?.messages[0]).toEqual({ role: 'system', text: 'Original' });
    expect(model.prompts[1]?.options.toolCallbacks?.map((t) => t.definition.name)).toEqual(['t1']);
  });
});

describe('ChatClient responses', () => {
  it('runs a .call() once however many response methods read it', async () => {
    const model = new ScriptedChatModel([
      textResponse('only once', {
        usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
      }),
    ]);
    const response = ChatClient.create(model).prompt('x').call();
    expect(model.callCount).toBe(0);
    const [content, chatResponse, clientResponse] = await Promise.all([
      response.content(),
      response.chatResponse(),
      response.chatClientResponse(),
    ]);
    expect(content).toBe('only once');
    expect(chatResponse?.metadata.usage?.totalTokens).toBe(3);
    expect(clientResponse.chatResponse).toBe(chatResponse);
    expect(model.callCount).toBe(1);
  });

  it('streams text deltas, chunks and client responses', async () => {
    const model = new ScriptedChatModel(
      [textResponse('Hello streaming world'), textResponse('Again')],
      {
        textChunks: 3,
      },
    );
    const client = ChatClient.create(model);
    const deltas: string[] = [];
    for await (const delta of client.prompt('x').stream().content()) deltas.push(delta);
    expect(deltas.length).toBe(3);
    expect(deltas.join('')).toBe('Hello streaming world');
    const chunks = [];
    for await (const chunk of client.prompt('y').stream().chatClientResponse()) chunks.push(chunk);
    expect(chunks.at(-1)?.chatResponse?.results[0]?.metadata.finishReason).toBe('stop');
    expect(model.callCount).toBe(2);
  });

  it('streams the text of every round as it arrives, with the tools running between rounds', async () => {
    const events: string[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'Looks something up',
      execute: () => {
        events.push('tool');
        return 'found';
      },
    });
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'lookup' }], { text: 'One moment. ' }),
      textResponse('Found it.'),
    ]);
    const stream = ChatClient.create(model, { tools: [lookup] })
      .prompt('Find it')
      .stream();
    for await (const delta of stream.content()) events.push(delta);
    expect(events).toEqual(['One ', 'mome', 'nt. ', 'tool', 'Fou', 'nd ', 'it.']);
  });

  it.each(['call', 'stream'] as const)(
    '%s: requests with and without advisors of their own, one after another on one client, each run their own chain',
    async (mode) => {
      const model = new ScriptedChatModel(Array.from({ length: 4 }, () => textResponse('ok')));
      const client = ChatClient.create(model);
      const recording = new RecordingAdvisor();
      const run = async (spec: ReturnType<typeof client.prompt>) => {
        if (mode === 'call') return (await spec.call().content()) ?? '';
        let text = '';
        for await (const delta of spec.stream().content()) text += delta;
        return text;
      };
      expect(await run(client.prompt('plain'))).toBe('ok');
      expect(await run(client.prompt('advised').advisors(recording))).toBe('ok');
      expect(await run(client.prompt('plain again'))).toBe('ok');
      expect(await run(client.prompt('no loop').advisors(noAutoRegister(), recording))).toBe('ok');
      expect(recording.requests.map((request) => request.prompt.messages.at(-1))).toMatchObject([
        { text: 'advised' },
        { text: 'no loop' },
      ]);
      expect(model.callCount).toBe(4);
    },
  );

  it('streams chatResponse() chunks of every round, and a break stops the model stream and aborts its signal', async () => {
    const lookup = tool({ name: 'lookup', description: 'Looks up', execute: () => 'found' });
    const model = new ScriptedChatModel(
      [toolCallResponse([{ name: 'lookup' }], { text: 'Wait. ' }), textResponse('Found it.')],
      { textChunks: 2 },
    );
    const responses: ChatResponse[] = [];
    for await (const response of ChatClient.create(model, { tools: [lookup] })
      .prompt('Find it')
      .stream()
      .chatResponse()) {
      responses.push(response);
    }
    expect(responses.map((response) => response.results[0]?.output.text).join('')).toBe(
      'Wait. Found it.',
    );
    expect(responses.at(-1)?.results[0]?.metadata.finishReason).toBe('stop');
    expect(responses.every((response) => response.results[0]?.output.toolCalls.length === 0)).toBe(
      true,
    );

    let closed = false;
    let signal: AbortSignal | undefined;
    const endless: ChatModel = {
      call: () => Promise.reject(new Error('streams only')),
      async *stream(_prompt, options) {
        signal = options?.signal;
        try {
          for (;;) {
            yield {
              results: [
                {
                  output: { role: 'assistant', text: 'more ', toolCalls: [] },
                  metadata: { finishReason: null },
                },
              ],
              metadata: {},
            };
          }
        } finally {
          closed = true;
        }
      },
    };
    let read = 0;
    for await (const _response of ChatClient.create(endless).prompt('go').stream().chatResponse()) {
      if (++read === 3) break;
    }
    expect(closed).toBe(true);
    expect(signal?.aborted).toBe(true);
  });

  it('streams the same deltas and chunks through advisors written as async generators, outside and inside the tool loop', async () => {
    /** A stream advisor written the plain way: an async generator that forwards every chunk. */
    class ForwardingAdvisor implements StreamAdvisor {
      readonly name: string;
      chunks = 0;
      constructor(readonly order: number) {
        this.name = `Forwarding ${order}`;
      }
      async *adviseStream(request: ChatClientRequest, chain: StreamAdvisorChain) {
        for await (const chunk of chain.nextStream(request)) {
          this.chunks++;
          yield chunk;
        }
      }
    }
    const lookup = tool({ name: 'lookup', description: 'Looks up', execute: () => 'found' });
    const run = async (advisors: ForwardingAdvisor[]) => {
      const model = new ScriptedChatModel(
        [
          toolCallResponse([{ name: 'lookup' }], { text: 'One moment. ' }),
          textResponse('Found it.', {
            usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
          }),
        ],
        { textChunks: 3 },
      );
      const spec = ChatClient.create(model, { tools: [lookup], advisors })
        .prompt('Find it')
        .stream();
      const deltas: string[] = [];
      for await (const delta of spec.content()) deltas.push(delta);
      return deltas;
    };
    const plain = await run([]);
    expect(plain).toEqual(['One ', 'mome', 'nt. ', 'Fou', 'nd ', 'it.']);
    const outside = new ForwardingAdvisor(HIGHEST_PRECEDENCE + 100);
    const inside = new ForwardingAdvisor(1_000);
    expect(await run([outside, inside])).toEqual(plain);
    // Inside the loop: both rounds' chunks (the third of the first round carries the tool call).
    // Outside: what the loop passes on (that chunk's text alone, then the answer).
    expect(inside.chunks).toBe(6);
    expect(outside.chunks).toBe(6);
  });

  it('rejects a chat model or a tool advisor template of the wrong kind', () => {
    expect(() => ChatClient.create({} as never)).toThrow('chatModel must be a ChatModel');
    expect(() =>
      ChatClient.create(new ScriptedChatModel(), { toolCallingAdvisor: {} as never }),
    ).toThrow('toolCallingAdvisor must be a ToolCallingAdvisor');
  });

  it('passes a tool-call response through untouched when auto-registration is off', async () => {
    const model = new ScriptedChatModel([toolCallResponse([{ name: 't1' }])]);
    const client = ChatClient.create(model, { advisors: [noAutoRegister()] });
    const response = await client.prompt('x').tools(echoTool('t1')).call().chatResponse();
    expect(response?.results[0]?.output.toolCalls[0]?.name).toBe('t1');
    expect(model.callCount).toBe(1);
  });
});

describe('ChatClient with a very long history', () => {
  it('sends a 200,000-message history without overflowing the call stack', async () => {
    const history = Array.from({ length: 200_000 }, (_, index) =>
      index % 2 === 0 ? userMessage(`question ${index}`) : assistantMessage(`answer ${index}`),
    );
    const model = new ScriptedChatModel([textResponse('still here')]);
    const answer = await ChatClient.create(model)
      .prompt()
      .messages(history)
      .user('last question')
      .call()
      .content();
    expect(answer).toBe('still here');
    expect(model.prompts[0]?.messages).toHaveLength(200_001);
  });
});

describe('ChatClient call runs sharing one client', () => {
  it('runs requests with and without advisors of their own on one client, each with its own chain', async () => {
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 't1' }]),
      textResponse('first'),
      textResponse('second'),
      toolCallResponse([{ name: 't1' }]),
      textResponse('third'),
      toolCallResponse([{ name: 't1' }]),
    ]);
    const client = ChatClient.create(model);
    const recorder = new RecordingAdvisor();
    expect(await client.prompt('a').tools(echoTool('t1')).call().content()).toBe('first');
    expect(await client.prompt('b').advisors(recorder).call().content()).toBe('second');
    expect(recorder.requests).toHaveLength(1);
    expect(await client.prompt('c').tools(echoTool('t1')).call().content()).toBe('third');
    // The recorder was on one request only; the next plain request still runs the loop.
    expect(recorder.requests).toHaveLength(1);
    const promptLengths = model.prompts.map((prompt) => prompt.messages.length);
    expect(promptLengths).toEqual([1, 3, 1, 1, 3]);
    // Auto-registration turned off for one request: its tool calls come back unexecuted.
    const raw = await client
      .prompt('d')
      .tools(echoTool('t1'))
      .advisors(noAutoRegister())
      .call()
      .chatResponse();
    expect(raw?.results[0]?.output.toolCalls[0]?.name).toBe('t1');
  });

  it('rejects, never throws, when the request cannot be built (aborted signal, colliding names)', async () => {
    const model = new ScriptedChatModel([textResponse('never')]);
    const client = ChatClient.create(model);
    const aborted = AbortSignal.abort();
    let response: Promise<unknown> | undefined;
    expect(() => {
      response = client.prompt('x').call({ signal: aborted }).chatClientResponse();
    }).not.toThrow();
    await expect(response).rejects.toThrow();
    expect(() => {
      response = client
        .prompt('x')
        .tools(echoTool('same'), echoTool('same'))
        .call()
        .chatClientResponse();
    }).not.toThrow();
    await expect(response).rejects.toBeInstanceOf(ToolDefinitionError);
    expect(model.callCount).toBe(0);
  });
});
