import { describe, expect, it } from 'vitest';
import { HIGHEST_PRECEDENCE } from '../advisors/index.js';
import { ChatClient } from '../client/index.js';
import {
  CONVERSATION_ID,
  InMemoryChatMemoryRepository,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
} from '../memory/index.js';
import {
  assistantMessage,
  toolResponse,
  toolResponseMessage,
  userMessage,
} from '../messages/index.js';
import type { Prompt } from '../model/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import type { ToolCallback } from '../tools/tool-callback.js';
import { LexicalToolIndex } from './lexical-tool-index.js';
import { RegexToolIndex } from './regex-tool-index.js';
import type { ToolReference, ToolSearchRequest } from './tool-reference.js';
import {
  TOOL_SEARCH_OFFERED_TOOL_NAMES_KEY,
  TOOL_SEARCH_TOOL_SESSION_ID_KEY,
} from './tool-search-tool.js';
import {
  DEFAULT_TOOL_SEARCH_SYSTEM_MESSAGE_SUFFIX,
  ToolSearchToolCallingAdvisor,
} from './tool-search-tool-calling-advisor.js';

/** The real regex index, with every call it receives recorded in order. */
class RecordingIndex extends RegexToolIndex {
  readonly calls: (
    | { op: 'clear'; sessionId: string }
    | { op: 'index'; sessionId: string; names: string[] }
    | { op: 'search'; request: ToolSearchRequest }
  )[] = [];
  override indexTools(sessionId: string, references: readonly ToolReference[]): void {
    this.calls.push({ op: 'index', sessionId, names: references.map((r) => r.toolName) });
    super.indexTools(sessionId, references);
  }
  override clearIndex(sessionId: string): void {
    this.calls.push({ op: 'clear', sessionId });
    super.clearIndex(sessionId);
  }
  override search(request: ToolSearchRequest) {
    this.calls.push({ op: 'search', request });
    return super.search(request);
  }
  ops(op: 'clear' | 'index' | 'search') {
    return this.calls.filter((call) => call.op === op);
  }
}

/** A tool that answers with a fixed JSON text and records its calls. */
function fixedTool(name: string, description: string, answer = `{"tool":"${name}"}`) {
  const calls: string[] = [];
  const callback: ToolCallback & { calls: string[] } = {
    definition: { name, description, inputSchema: { type: 'object', properties: {} } },
    metadata: {},
    calls,
    async call(input) {
      calls.push(input);
      return answer;
    },
  };
  return callback;
}

const offered = (prompt: Prompt | undefined) =>
  (prompt?.options.toolCallbacks ?? []).map((callback) => callback.definition.name);

const search = (query: string, extra: Record<string, unknown> = {}, id = 'search-1') => ({
  id,
  name: 'toolSearchTool',
  arguments: { query, ...extra },
});

const modes = ['call', 'stream'] as const;
type Mode = (typeof modes)[number];

/** Runs one request in the given mode and returns the final text. */
async function run(mode: Mode, spec: ReturnType<ChatClient['prompt']>): Promise<string | null> {
  if (mode === 'call') return spec.call().content();
  let text = '';
  for await (const chunk of spec.stream().content()) text += chunk;
  return text;
}

describe('ToolSearchToolCallingAdvisor construction', () => {
  it('defaults to a LexicalToolIndex with its default options, field-weighted BM25', () => {
    const toolIndex = new ToolSearchToolCallingAdvisor().toolIndex;
    expect(toolIndex).toBeInstanceOf(LexicalToolIndex);
    expect(new ToolSearchToolCallingAdvisor({}).toolIndex).toBeInstanceOf(LexicalToolIndex);
    // The same ranking as a LexicalToolIndex built with no options, scores included.
    const tools = [
      { toolName: 'finance_pay_vendor_bill', summary: 'Pay an outstanding bill of a vendor' },
      { toolName: 'hr_lookup_pto_balance', summary: 'Look up the PTO balance of an employee' },
    ];
    const plain = new LexicalToolIndex();
    toolIndex.indexTools('s', tools);
    plain.indexTools('s', tools);
    const request = { sessionId: 's', query: 'pay the vendor bill and look up the balance' };
    expect(toolIndex.search(request)).toMatchObject({
      toolReferences: plain.search(request).toolReferences,
    });
  });

  it('finds a tool with its default index, which the model asks in other words', async () => {
    const model = new ScriptedChatModel([
      toolCallResponse([
        {
          id: 's1',
          name: 'toolSearchTool',
          arguments: { query: 'wire money to a supplier', queries: ['pay a vendor'] },
        },
      ]),
      textResponse('done'),
    ]);
    const client = ChatClient.create(model, {
      toolCallingAdvisor: new ToolSearchToolCallingAdvisor({ maxResults: 3 }),
    });
    await client
      .prompt('pay Acme')
      .tools(
        fixedTool('finance_pay_vendor_bill', 'Pay an outstanding bill of a vendor'),
        fixedTool('hr_lookup_pto_balance', 'Look up the PTO balance of an employee'),
        fixedTool('crm_create_support_ticket', 'Open a support ticket for a customer'),
      )
      .advisors((a) => a.param(CONVERSATION_ID, 'default-index'))
      .call()
      .content();
    expect(offered(model.prompts[1]).slice(0, 2)).toEqual([
      'toolSearchTool',
      'finance_pay_vendor_bill',
    ]);
  });

  it('has its name, the default order +300, and keeps a custom order', () => {
    const advisor = new ToolSearchToolCallingAdvisor({ toolIndex: new RegexToolIndex() });
    expect(advisor.name).toBe('ToolSearchToolCallingAdvisor');
    expect(advisor.order).toBe(HIGHEST_PRECEDENCE + 300);
    expect(advisor.isToolAdvisor).toBe(true);
    expect(
      new ToolSearchToolCallingAdvisor({
        toolIndex: new RegexToolIndex(),
        order: HIGHEST_PRECEDENCE + 500,
      }).order,
    ).toBe(HIGHEST_PRECEDENCE + 500);
  });

  it('has the reference defaults', () => {
    const advisor = new ToolSearchToolCallingAdvisor({ toolIndex: new RegexToolIndex() });
    expect(advisor.sessionIdKeyName).toBe('chat_memory_conversation_id');
    expect(advisor.systemMessageSuffix).toBe(DEFAULT_TOOL_SEARCH_SYSTEM_MESSAGE_SUFFIX);
    expect(advisor.referenceToolNameAccumulation).toBe(true);
    expect(advisor.maxResults).toBeUndefined();
    expect(advisor.eviction).toEqual({ maxSessions: 1000 });
  });

  it('validates its options', () => {
    const toolIndex = new RegexToolIndex();
    expect(() => new ToolSearchToolCallingAdvisor({ toolIndex, sessionIdKeyName: ' ' })).toThrow(
      'sessionIdKeyName cannot be empty',
    );
    expect(() => new ToolSearchToolCallingAdvisor({ toolIndex, systemMessageSuffix: '' })).toThrow(
      'systemMessageSuffix cannot be empty',
    );
    expect(() => new ToolSearchToolCallingAdvisor({ toolIndex, maxResults: 0 })).toThrow(
      'maxResults must be a positive integer',
    );
    expect(
      () => new ToolSearchToolCallingAdvisor({ toolIndex, order: HIGHEST_PRECEDENCE }),
    ).toThrow('advisorOrder must be between');
  });

  it('copies keep the subtype and every option', () => {
    const toolIndex = new RegexToolIndex();
    const eviction = { maxSessions: 3 };
    const advisor = new ToolSearchToolCallingAdvisor({
      toolIndex,
      maxResults: 4,
      sessionIdKeyName: 'sid',
      systemMessageSuffix: 'S',
      referenceToolNameAccumulation: false,
      eviction,
    });
    const copy = advisor.copy({ conversationHistoryEnabled: false });
    expect(copy).toBeInstanceOf(ToolSearchToolCallingAdvisor);
    expect(copy).not.toBe(advisor);
    expect([
      copy.toolIndex,
      copy.maxResults,
      copy.sessionIdKeyName,
      copy.systemMessageSuffix,
    ]).toEqual([toolIndex, 4, 'sid', 'S']);
    expect(copy.referenceToolNameAccumulation).toBe(false);
    expect(copy.eviction).toBe(eviction);
    expect(copy.conversationHistoryEnabled).toBe(false);
  });
});

describe.each(modes)('ToolSearchToolCallingAdvisor (%s)', (mode) => {
  const weather = () => fixedTool('weatherTool', 'Get the current weather for a city');
  const calculator = () => fixedTool('calculatorTool', 'Evaluate an arithmetic expression');

  const setup = (
    script: ConstructorParameters<typeof ScriptedChatModel>[0],
    options: Partial<ConstructorParameters<typeof ToolSearchToolCallingAdvisor>[0]> = {},
  ) => {
    const index = new RecordingIndex();
    const model = new ScriptedChatModel(script);
    const advisor = new ToolSearchToolCallingAdvisor({ toolIndex: index, ...options });
    const client = ChatClient.create(model, { toolCallingAdvisor: advisor });
    return { index, model, advisor, client };
  };

  it('indexes the request tools once, in order, under the session from the advisor params', async () => {
    const { index, client } = setup([textResponse('hi')]);
    await run(
      mode,
      client
        .prompt('hello')
        .tools(weather(), calculator())
        .advisors((a) => a.param(CONVERSATION_ID, 'conv-1')),
    );
    expect(index.calls.filter((c) => c.op !== 'search')).toEqual([
      { op: 'clear', sessionId: 'conv-1' },
      { op: 'index', sessionId: 'conv-1', names: ['weatherTool', 'calculatorTool'] },
    ]);
  });

  it('re-indexes only when the tool set changes, and never on finalize', async () => {
    const { index, client } = setup([textResponse('1'), textResponse('2'), textResponse('3')]);
    const ask = (...tools: ToolCallback[]) =>
      run(
        mode,
        client
          .prompt('q')
          .tools(...tools)
          .advisors((a) => a.param(CONVERSATION_ID, 's')),
      );
    await ask(weather(), calculator());
    await ask(calculator(), weather());
    expect(index.ops('clear')).toHaveLength(1);
    expect(index.ops('index')).toHaveLength(1);
    await ask(weather());
    expect(index.ops('clear')).toHaveLength(2);
    expect(index.ops('index')).toHaveLength(2);
  });

  it('indexes once when the first requests of a session run concurrently', async () => {
    const { index, client } = setup(Array.from({ length: 5 }, (_, i) => textResponse(`r${i}`)));
    const tools = [weather(), calculator()];
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        run(
          mode,
          client
            .prompt('q')
            .tools(...tools)
            .advisors((a) => a.param(CONVERSATION_ID, 'same')),
        ),
      ),
    );
    expect(answers.sort()).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
    expect(index.ops('index')).toHaveLength(1);
    expect(index.ops('clear')).toHaveLength(1);
  });

  it('appends the suffix to the system message, or adds one', async () => {
    const { model, client } = setup([textResponse('a'), textResponse('b')], {
      systemMessageSuffix: '\nCUSTOM SUFFIX',
    });
    await run(
      mode,
      client
        .prompt('q')
        .system('Original system message')
        .tools(weather())
        .advisors((a) => a.param(CONVERSATION_ID, 's')),
    );
    await run(
      mode,
      client
        .prompt('q')
        .tools(weather())
        .advisors((a) => a.param(CONVERSATION_ID, 's')),
    );
    const systemOf = (i: number) => model.prompts[i]?.messages.find((m) => m.role === 'system');
    expect(systemOf(0)).toMatchObject({ text: 'Original system message\nCUSTOM SUFFIX' });
    expect(model.prompts[1]?.messages[0]).toMatchObject({
      role: 'system',
      text: '\nCUSTOM SUFFIX',
    });
  });

  it('runs a request without a session id under a session of its own, forgotten afterwards', async () => {
    const { index, model, advisor, client } = setup([
      toolCallResponse([search('weather')]),
      toolCallResponse([{ id: 'w1', name: 'weatherTool', arguments: {} }]),
      textResponse('Sunny'),
    ]);
    const tool = weather();
    expect(await run(mode, client.prompt('Weather?').tools(tool, calculator()))).toBe('Sunny');
    expect(tool.calls).toHaveLength(1);
    expect(offered(model.prompts[2])).toEqual(['toolSearchTool', 'weatherTool']);
    const [indexed] = index.ops('index') as { sessionId: string }[];
    expect(indexed?.sessionId).toMatch(/^toolloop\.request\./);
    const searched = index.ops('search') as { request: ToolSearchRequest }[];
    expect(searched[0]?.request.sessionId).toBe(indexed?.sessionId);
    expect(index.calls.at(-1)).toEqual({ op: 'clear', sessionId: indexed?.sessionId });
    expect(index.totalSize()).toBe(0);
    expect(advisor.eviction).toEqual({ maxSessions: 1000 });
  });

  it('gives concurrent requests without a session id separate sessions, and keeps none', async () => {
    const { index, client } = setup(Array.from({ length: 4 }, (_, i) => textResponse(`r${i}`)));
    const tools = [weather(), calculator()];
    await Promise.all(
      Array.from({ length: 4 }, () => run(mode, client.prompt('q').tools(...tools))),
    );
    const sessions = new Set(
      (index.ops('index') as { sessionId: string }[]).map((call) => call.sessionId),
    );
    expect(sessions.size).toBe(4);
    expect(index.totalSize()).toBe(0);
  });

  it('forgets the per-request session when the request fails', async () => {
    const { index, client } = setup([new Error('model down')]);
    await expect(run(mode, client.prompt('q').tools(weather()))).rejects.toThrow('model down');
    expect(index.ops('index')).toHaveLength(1);
    expect(index.totalSize()).toBe(0);
  });

  it('forgets the per-request session of a stream left early', async () => {
    const { index, client } = setup([textResponse('a long answer in several chunks')]);
    for await (const _delta of client.prompt('q').tools(weather()).stream().content()) break;
    expect(index.ops('index')).toHaveLength(1);
    expect(index.totalSize()).toBe(0);
  });

  it('never lets a per-request session take a slot of the eviction strategy', async () => {
    const { index, client } = setup([textResponse('a'), textResponse('b')], {
      eviction: { maxSessions: 1 },
    });
    await run(
      mode,
      client
        .prompt('q')
        .tools(weather())
        .advisors((a) => a.param(CONVERSATION_ID, 'kept')),
    );
    await run(mode, client.prompt('q').tools(weather()));
    expect(index.size('kept')).toBe(1);
    expect(index.totalSize()).toBe(1);
  });

  it('reads the session id from a custom advisor-param key, not from the tool context', async () => {
    const { index, client } = setup([textResponse('ok')], {
      sessionIdKeyName: TOOL_SEARCH_TOOL_SESSION_ID_KEY,
    });
    await run(
      mode,
      client
        .prompt('q')
        .tools(weather())
        .toolContext({ [TOOL_SEARCH_TOOL_SESSION_ID_KEY]: 'from-tool-context' })
        .advisors((a) => a.param(TOOL_SEARCH_TOOL_SESSION_ID_KEY, 'from-params')),
    );
    expect(index.ops('clear')).toEqual([{ op: 'clear', sessionId: 'from-params' }]);
  });

  it('evicts the least recently used session (LRU 1)', async () => {
    const { index, client } = setup([textResponse('a'), textResponse('b')], {
      eviction: { maxSessions: 1 },
    });
    await run(
      mode,
      client
        .prompt('q')
        .tools(weather())
        .advisors((a) => a.param(CONVERSATION_ID, 'session-A')),
    );
    await run(
      mode,
      client
        .prompt('q')
        .tools(weather())
        .advisors((a) => a.param(CONVERSATION_ID, 'session-B')),
    );
    const cleared = index.ops('clear').map((c) => (c as { sessionId: string }).sessionId);
    expect(cleared).toEqual(['session-A', 'session-A', 'session-B']);
    expect(index.size('session-A')).toBe(0);
    expect(index.size('session-B')).toBe(1);
  });

  it('a copy of the advisor evicts the sessions its original indexed (one eviction state)', async () => {
    const { index, advisor, model } = setup([textResponse('a'), textResponse('b')], {
      eviction: { maxSessions: 1 },
    });
    const copy = advisor.copy({ conversationHistoryEnabled: false });
    const ask = (toolCallingAdvisor: ToolSearchToolCallingAdvisor, session: string) =>
      run(
        mode,
        ChatClient.create(model, { toolCallingAdvisor })
          .prompt('q')
          .tools(weather())
          .advisors((a) => a.param(CONVERSATION_ID, session)),
      );
    await ask(advisor, 'session-A');
    await ask(copy, 'session-B');
    expect(index.size('session-A')).toBe(0);
    expect(index.size('session-B')).toBe(1);
  });

  it('with maxSessions 0 indexes the tools again on every request of a session', async () => {
    const { index, client } = setup([textResponse('a'), textResponse('b')], {
      eviction: { maxSessions: 0 },
    });
    for (let i = 0; i < 2; i++) {
      await run(
        mode,
        client
          .prompt('q')
          .tools(weather())
          .advisors((a) => a.param(CONVERSATION_ID, 'session-A')),
      );
    }
    expect(index.ops('index')).toHaveLength(2);
  });

  it('evictSession clears the index and the next request re-indexes', async () => {
    const { index, advisor, client } = setup([textResponse('a'), textResponse('b')]);
    const ask = () =>
      run(
        mode,
        client
          .prompt('q')
          .tools(weather())
          .advisors((a) => a.param(CONVERSATION_ID, 'conv-1')),
      );
    await ask();
    await advisor.evictSession('conv-1');
    expect(index.calls.at(-1)).toEqual({ op: 'clear', sessionId: 'conv-1' });
    await ask();
    expect(index.ops('index')).toHaveLength(2);
  });

  it('offers only the search tool first, then the search tool plus the tools found', async () => {
    const weatherTool = weather();
    const { model, index, client } = setup([
      toolCallResponse([search('weather')]),
      toolCallResponse([{ id: 'w1', name: 'weatherTool', arguments: {} }]),
      textResponse('Sunny'),
    ]);
    const answer = await run(
      mode,
      client
        .prompt('weather?')
        .tools(weatherTool, calculator())
        .advisors((a) => a.param(CONVERSATION_ID, 's')),
    );
    expect(answer).toBe('Sunny');
    expect(offered(model.prompts[0])).toEqual(['toolSearchTool']);
    expect(offered(model.prompts[1])).toEqual(['toolSearchTool', 'weatherTool']);
    expect(offered(model.prompts[2])).toEqual(['toolSearchTool', 'weatherTool']);
    expect(weatherTool.calls).toEqual(['{}']);
    expect(index.size('s')).toBe(2);
    const searchResult = model.prompts[1]?.messages.at(-1);
    expect(searchResult).toMatchObject({
      role: 'tool',
      responses: [
        {
          id: 'search-1',
          name: 'toolSearchTool',
          responseData: '{"found":["weatherTool"],"alreadyOffered":[]}',
        },
      ],
    });
  });

  it('tells the model which found tools it could already call', async () => {
    const { model, client } = setup([
      toolCallResponse([search('weather')]),
      toolCallResponse([search('weather calculator', {}, 'search-2')]),
      textResponse('done'),
    ]);
    await run(
      mode,
      client
        .prompt('q')
        .tools(weather(), calculator())
        .advisors((a) => a.param(CONVERSATION_ID, 's')),
    );
    const second = model.prompts[2]?.messages.at(-1);
    const result = JSON.parse(
      second?.role === 'tool' ? (second.responses[0]?.responseData ?? '') : '',
    );
    expect(result.found).toEqual(expect.arrayContaining(['weatherTool', 'calculatorTool']));
    expect(result.alreadyOffered).toEqual(['weatherTool']);
  });

  it('ignores found names that are not registered callbacks', async () => {
    const { model, client } = setup([textResponse('a'), textResponse('b')]);
    const earlier = [
      userMessage('find tools'),
      assistantMessage(null, [{ id: 'x', name: 'toolSearchTool', arguments: '{"query":"q"}' }]),
      toolResponseMessage([
        toolResponse('x', 'toolSearchTool', '["weatherTool","calculatorTool"]'),
      ]),
    ];
    await run(
      mode,
      client
        .prompt()
        .messages(earlier)
        .user('go on')
        .tools(fixedTool('mailTool', 'Send mail'))
        .advisors((a) => a.param(CONVERSATION_ID, 's')),
    );
    expect(offered(model.prompts[0])).toEqual(['toolSearchTool']);
    await run(
      mode,
      client
        .prompt()
        .messages(earlier)
        .user('go on')
        .tools(weather())
        .advisors((a) => a.param(CONVERSATION_ID, 's2')),
    );
    expect(offered(model.prompts[1])).toEqual(['toolSearchTool', 'weatherTool']);
  });

  it('never returns a tool of another session, nor one the request does not attach', async () => {
    const { model, index, client } = setup([
      textResponse('warm-up'),
      toolCallResponse([search('ghost weather')]),
      textResponse('done'),
    ]);
    const ask = (text: string) =>
      run(
        mode,
        client
          .prompt(text)
          .tools(calculator())
          .advisors((a) => a.param(CONVERSATION_ID, 'mine')),
      );
    await ask('index my tools');
    index.indexTools('other', [{ toolName: 'weatherTool', summary: 'weather' }]);
    // Same fingerprint, so no re-index: the stray entry stays in this session's index.
    index.indexTools('mine', [{ toolName: 'ghostTool', summary: 'ghost weather' }]);
    await ask('search');
    expect(model.prompts[2]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      responses: [{ name: 'toolSearchTool', responseData: '{"found":[],"alreadyOffered":[]}' }],
    });
    expect(offered(model.prompts[2])).toEqual(['toolSearchTool']);
  });

  it("passes the model's maxResults, else the advisor's", async () => {
    const { index, client } = setup(
      [
        toolCallResponse([search('weather', { maxResults: 7 })]),
        toolCallResponse([search('weather', {}, 'search-2')]),
        textResponse('done'),
      ],
      { maxResults: 3 },
    );
    await run(
      mode,
      client
        .prompt('q')
        .tools(weather())
        .advisors((a) => a.param(CONVERSATION_ID, 's')),
    );
    expect(
      index.ops('search').map((c) => (c as { request: ToolSearchRequest }).request.maxResults),
    ).toEqual([7, 3]);
  });

  it('accumulates found tools across search rounds, first found first', async () => {
    const { model, client } = setup([
      toolCallResponse([search('calculator')]),
      toolCallResponse([search('weather', {}, 'search-2')]),
      textResponse('done'),
    ]);
    await run(
      mode,
      client
        .prompt('q')
        .tools(weather(), calculator())
        .advisors((a) => a.param(CONVERSATION_ID, 's')),
    );
    expect(offered(model.prompts[1])).toEqual(['toolSearchTool', 'calculatorTool']);
    expect(offered(model.prompts[2])).toEqual(['toolSearchTool', 'calculatorTool', 'weatherTool']);
  });

  it('without accumulation offers the last round of searches only (all parallel ones of it)', async () => {
    const mail = fixedTool('mailTool', 'Send an email message');
    const { model, client } = setup(
      [
        toolCallResponse([
          search('calculator', {}, 'a'),
          search('weather', {}, 'b'),
          search('email', {}, 'c'),
        ]),
        toolCallResponse([search('weather', {}, 'd')]),
        textResponse('done'),
      ],
      { referenceToolNameAccumulation: false },
    );
    await run(
      mode,
      client
        .prompt('q')
        .tools(weather(), calculator(), mail)
        .advisors((a) => a.param(CONVERSATION_ID, 's')),
    );
    expect(offered(model.prompts[1])).toEqual([
      'toolSearchTool',
      'calculatorTool',
      'weatherTool',
      'mailTool',
    ]);
    expect(offered(model.prompts[2])).toEqual(['toolSearchTool', 'weatherTool']);
  });

  it('a failed search reaches the model as an error response and the next round still works', async () => {
    const { model, client } = setup([
      toolCallResponse([{ id: 'bad', name: 'toolSearchTool', arguments: { maxResults: 'many' } }]),
      toolCallResponse([search('weather', {}, 'ok')]),
      textResponse('recovered'),
    ]);
    const answer = await run(
      mode,
      client
        .prompt('q')
        .tools(weather())
        .advisors((a) => a.param(CONVERSATION_ID, 's')),
    );
    expect(answer).toBe('recovered');
    const errorResponse = model.prompts[1]?.messages.at(-1);
    expect(errorResponse).toMatchObject({
      role: 'tool',
      responses: [{ id: 'bad', isError: true }],
    });
    expect(offered(model.prompts[1])).toEqual(['toolSearchTool']);
    expect(offered(model.prompts[2])).toEqual(['toolSearchTool', 'weatherTool']);
  });

  it('a registered but undiscovered tool is answered with an error response, not run', async () => {
    const weatherTool = weather();
    const { model, client } = setup([
      toolCallResponse([{ id: 'w', name: 'weatherTool', arguments: {} }]),
      textResponse('ok'),
    ]);
    await run(
      mode,
      client
        .prompt('q')
        .tools(weatherTool)
        .advisors((a) => a.param(CONVERSATION_ID, 's')),
    );
    expect(weatherTool.calls).toEqual([]);
    expect(model.prompts[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      responses: [{ id: 'w', name: 'weatherTool', isError: true }],
    });
  });

  it('keeps the user tool context and adds the session id for the search tool', async () => {
    const contexts: unknown[] = [];
    const weatherTool: ToolCallback = {
      ...weather(),
      async call(_input, context) {
        contexts.push(context?.context);
        return 'sunny';
      },
    };
    const { model, client } = setup([
      toolCallResponse([search('weather')]),
      toolCallResponse([{ id: 'w1', name: 'weatherTool', arguments: {} }]),
      textResponse('ok'),
    ]);
    await run(
      mode,
      client
        .prompt('q')
        .tools(weatherTool)
        .toolContext({ tenant: 'acme' })
        .advisors((a) => a.param(CONVERSATION_ID, 'conv-9')),
    );
    // The search tool found the tool in the session's index, and the tools got the context …
    expect(offered(model.prompts[1])).toEqual(['toolSearchTool', 'weatherTool']);
    expect(contexts).toEqual([
      {
        tenant: 'acme',
        [TOOL_SEARCH_TOOL_SESSION_ID_KEY]: 'conv-9',
        [TOOL_SEARCH_OFFERED_TOOL_NAMES_KEY]: ['weatherTool'],
      },
    ]);
    // … which never reaches the model.
    for (const prompt of model.prompts) expect(prompt.options).not.toHaveProperty('toolContext');
  });

  it('passes a request without tools through: no search tool, no suffix', async () => {
    const { model, index, client } = setup([textResponse('plain')]);
    expect(await run(mode, client.prompt('q').system('S'))).toBe('plain');
    expect(offered(model.prompts[0])).toEqual([]);
    expect(model.prompts[0]?.messages[0]).toMatchObject({ role: 'system', text: 'S' });
    expect(index.calls).toEqual([]);
  });

  it('with memory inside the loop keeps offering the tools found earlier in the turn', async () => {
    const weatherTool = weather();
    const { model, client } = setup([
      toolCallResponse([search('weather')]),
      toolCallResponse([{ id: 'w1', name: 'weatherTool', arguments: {} }]),
      toolCallResponse([{ id: 'w2', name: 'weatherTool', arguments: {} }]),
      textResponse('twice'),
    ]);
    const memory = new MessageChatMemoryAdvisor({
      chatMemory: new MessageWindowChatMemory({
        repository: new InMemoryChatMemoryRepository(),
        maxMessages: 100,
      }),
      order: HIGHEST_PRECEDENCE + 1000,
    });
    const answer = await run(
      mode,
      client
        .prompt('q')
        .tools(weatherTool)
        .advisors(memory, (a) => a.param(CONVERSATION_ID, 'c')),
    );
    expect(answer).toBe('twice');
    expect(weatherTool.calls).toHaveLength(2);
    expect(offered(model.prompts[3])).toEqual(['toolSearchTool', 'weatherTool']);
    // The memory advisor replayed the whole turn to the model.
    expect(model.prompts[3]?.messages.filter((m) => m.role === 'tool')).toHaveLength(3);
  });

  it('with memory inside the loop, tools found in an earlier turn stay offered in the next', async () => {
    const weatherTool = weather();
    const { model, client } = setup([
      toolCallResponse([search('weather')]),
      textResponse('found it'),
      toolCallResponse([{ id: 'w1', name: 'weatherTool', arguments: {} }]),
      textResponse('sunny'),
    ]);
    const memory = new MessageChatMemoryAdvisor({
      chatMemory: new MessageWindowChatMemory({
        repository: new InMemoryChatMemoryRepository(),
        maxMessages: 100,
      }),
      order: HIGHEST_PRECEDENCE + 1000,
    });
    const ask = (text: string, id: string) =>
      run(
        mode,
        client
          .prompt(text)
          .tools(weatherTool)
          .advisors(memory, (a) => a.param(CONVERSATION_ID, id)),
      );
    await ask('find a weather tool', 'c');
    expect(await ask('now use it', 'c')).toBe('sunny');
    expect(offered(model.prompts[2])).toEqual(['toolSearchTool', 'weatherTool']);
    expect(weatherTool.calls).toHaveLength(1);
  });

  it('without memory, a new turn starts again from the search tool alone', async () => {
    const { model, client } = setup([
      toolCallResponse([search('weather')]),
      textResponse('found it'),
      textResponse('next turn'),
    ]);
    const ask = (text: string) =>
      run(
        mode,
        client
          .prompt(text)
          .tools(weather())
          .advisors((a) => a.param(CONVERSATION_ID, 'c')),
      );
    await ask('find a weather tool');
    await ask('now use it');
    expect(offered(model.prompts[2])).toEqual(['toolSearchTool']);
  });
});
