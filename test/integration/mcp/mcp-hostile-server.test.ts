import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ChatClient,
  type Message,
  pendingApprovalOf,
  ToolApprovalPolicies,
  type ToolApprovalPolicy,
  tool,
} from '../../../src/index.js';
import { McpToolCallbackProvider } from '../../../src/mcp/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../../../src/testing/index.js';

// A real stdio MCP server (fixtures/hostile-server.mjs, on the official SDK) whose tool list is
// the attack: catastrophic patterns, a 2,000-level schema, schemas that are not object schemas,
// and a destructive tool annotated read-only.
const hostileServer = fileURLToPath(new URL('./fixtures/hostile-server.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'toolloop-mcp-hostile-'));
let ledger = '';
let providers: McpToolCallbackProvider[] = [];
let warnings: string[] = [];
const onWarning = (warning: Error) => {
  if (warning.name === 'McpToolWarning') warnings.push(warning.message);
};

function hostile(tools: string, options: { trusted?: boolean } = {}) {
  const provider = new McpToolCallbackProvider({
    connections: {
      hostile: {
        command: process.execPath,
        args: [hostileServer],
        env: { LEDGER: ledger, TOOLS: tools },
        ...(options.trusted === undefined ? {} : { trusted: options.trusted }),
      },
    },
  });
  providers.push(provider);
  return provider;
}

/** Process warnings are emitted on the next tick. */
const warningsEmitted = () => new Promise((resolve) => setImmediate(resolve));

const ran = () => (existsSync(ledger) ? readFileSync(ledger, 'utf8').trim().split('\n') : []);

const localEcho = tool({
  name: 'local_echo',
  description: 'Echoes locally',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  execute: ({ text }: { text?: string }) => `local ${text}`,
});

function toolResponses(messages: readonly Message[]) {
  return messages.flatMap((message) => (message.role === 'tool' ? message.responses : []));
}

beforeEach(() => {
  ledger = join(mkdtempSync(join(work, 'case-')), 'ledger.txt');
  warnings = [];
  process.on('warning', onWarning);
});

afterEach(async () => {
  await Promise.all(providers.map((provider) => provider.close()));
  providers = [];
  process.off('warning', onWarning);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a hostile MCP server', () => {
  it('cannot freeze the process with a catastrophic pattern (ReDoS): the call is refused, the loop runs on', async () => {
    const provider = hostile('ok,redos,redos-keys');
    // Listing compiles the schemas (and loads the regex engine once, about 0.1 s): not measured.
    await provider.getToolCallbacks();
    // 26 characters take about a second on a backtracking engine; 31 took 6.4 s, 35 took 79 s.
    const attack = `${'a'.repeat(25)}!`;
    const model = new ScriptedChatModel([
      toolCallResponse([
        { id: 'short', name: 'redos', arguments: { text: attack } },
        { id: 'keys', name: 'redos-keys', arguments: { [attack]: 'x' } },
        { id: 'fine', name: 'redos', arguments: { text: 'aaaa' } },
      ]),
      textResponse('done'),
      // A string that fills the argument limit is over the pattern budget: refused unmatched.
      toolCallResponse([
        { id: 'huge', name: 'redos', arguments: { text: `${'a'.repeat(1_000_000)}!` } },
      ]),
      textResponse('done again'),
    ]);
    const client = ChatClient.create(model, { tools: [provider] });
    /** The longest the event loop went without running a 1 ms interval while `run` ran. */
    const blocked = async (run: () => Promise<unknown>) => {
      let last = performance.now();
      let longest = 0;
      const ticker = setInterval(() => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
      }, 1);
      try {
        await run();
      } finally {
        clearInterval(ticker);
      }
      return Math.max(longest, performance.now() - last);
    };

    // Parsing and checking a turn's arguments costs milliseconds; a backtracking match, seconds.
    expect(await blocked(() => client.prompt('go').call().content())).toBeLessThan(200);
    const responses = toolResponses(model.prompts[1]?.messages ?? []);
    expect(responses.map((response) => [response.id, response.isError === true])).toEqual([
      ['short', true],
      ['keys', true],
      ['fine', false],
    ]);
    expect(responses[0]?.responseData).toMatch(/must match pattern/);
    expect(responses[1]?.responseData).toMatch(/is not an allowed property/);

    expect(await blocked(() => client.prompt('again').call().content())).toBeLessThan(200);
    const huge = toolResponses(model.prompts[3]?.messages ?? []);
    expect(huge.map((response) => [response.id, response.isError === true])).toEqual([
      ['huge', true],
    ]);
    expect(huge[0]?.responseData).toMatch(/too long to check against the schema's patterns/);
    // Only the valid call reached the server.
    expect(ran()).toEqual(['redos {"text":"aaaa"}']);
  });

  it('a pattern the linear-time engine cannot run leaves that tool out with a warning', async () => {
    const provider = hostile('ok,lookahead');
    const names = (await provider.getToolCallbacks()).map((callback) => callback.definition.name);
    expect(names).toEqual(['ok']);
    await warningsEmitted();
    expect(warnings).toEqual([
      expect.stringMatching(
        /^MCP tool 'lookahead' of server 'hostile' was left out: .*linear-time regex engine/,
      ),
    ]);
  });

  it('one bad tool (2,000-level schema, non-object schemas) is left out; its neighbours and local tools run in the same request', async () => {
    const provider = hostile('ok,deep,not-object,array-schema');
    const model = new ScriptedChatModel([
      toolCallResponse([
        { id: 'remote', name: 'ok', arguments: { text: 'hi' } },
        { id: 'local', name: 'local_echo', arguments: { text: 'there' } },
        { id: 'bad', name: 'deep', arguments: {} },
      ]),
      textResponse('done'),
    ]);
    const client = ChatClient.create(model, { tools: [localEcho, provider] });
    expect(await client.prompt('go').call().content()).toBe('done');

    const offered = (model.prompts[0]?.options.toolCallbacks ?? []).map(
      (callback) => callback.definition.name,
    );
    expect(offered).toEqual(['local_echo', 'ok']);
    const responses = toolResponses(model.prompts[1]?.messages ?? []);
    expect(responses.map((response) => [response.id, response.isError === true])).toEqual([
      ['remote', false],
      ['local', false],
      ['bad', true],
    ]);
    expect(responses[1]?.responseData).toBe('"local there"');
    expect(ran()).toEqual(['ok {"text":"hi"}']);
    await warningsEmitted();
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(
      /'deep' .*left out: its definition is nested more than 128 levels deep/,
    );
    expect(warnings[1]).toMatch(/'not-object' .*left out: it is not a valid MCP tool: inputSchema/);
    expect(warnings[2]).toMatch(
      /'array-schema' .*left out: it is not a valid MCP tool: inputSchema\.type/,
    );
    // Reported once, not on every request.
    await provider.getToolCallbacks();
    await warningsEmitted();
    expect(warnings).toHaveLength(3);
  });
});

describe('schema clean-up', () => {
  it('a schema without a type (even {}) is an object schema, as Spring AI cleans it up: offered, and its arguments checked', async () => {
    const provider = hostile('untyped,untyped-props');
    const tools = await provider.getToolCallbacks();
    await warningsEmitted();
    expect(warnings).toEqual([]);
    expect(tools.map((tool) => [tool.definition.name, tool.definition.inputSchema])).toEqual([
      ['untyped', { type: 'object', properties: {} }],
      [
        'untyped-props',
        { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      ],
    ]);
    const [untyped, withProps] = tools;
    expect(await untyped?.call('{}')).toBe('untyped ran');
    await expect(withProps?.call('{"text":1}')).rejects.toThrow(/text/);
    expect(await withProps?.call('{"text":"hi"}')).toBe('untyped-props ran');
    expect(ran()).toEqual(['untyped {}', 'untyped-props {"text":"hi"}']);
  });

  it('a draft-07 tuple (items as an array) becomes prefixItems: offered, and its arguments checked', async () => {
    const [tuple] = await hostile('tuple-07').getToolCallbacks();
    await warningsEmitted();
    expect(warnings).toEqual([]);
    expect(tuple?.definition.inputSchema).toEqual({
      type: 'object',
      properties: {
        pair: {
          type: 'array',
          prefixItems: [{ type: 'string' }, { type: 'number' }],
          items: false,
          minItems: 2,
        },
      },
      required: ['pair'],
    });
    await expect(tuple?.call('{"pair":["a","b"]}')).rejects.toThrow(/pair\/1/);
    await expect(tuple?.call('{"pair":["a",1,2]}')).rejects.toThrow(/pair/);
    expect(await tuple?.call('{"pair":["a",1]}')).toBe('tuple-07 ran');
    expect(ran()).toEqual(['tuple-07 {"pair":["a",1]}']);
  });
});

describe('annotations of an MCP server count toward approval only when the server is trusted', () => {
  const policies: [string, ToolApprovalPolicy][] = [
    ['unlessReadOnly', ToolApprovalPolicies.unlessReadOnly],
    ['destructive', ToolApprovalPolicies.destructive],
  ];

  for (const [policyName, policy] of policies) {
    it(`${policyName}: a destructive tool falsely annotated readOnlyHint: true still needs approval`, async () => {
      const provider = hostile('drop-table');
      const model = new ScriptedChatModel([
        toolCallResponse([{ id: 'drop', name: 'drop-table', arguments: { table: 'users' } }]),
        textResponse('dropped'),
      ]);
      const client = ChatClient.create(model, { tools: [provider], approval: { policy } });
      const response = await client.prompt('clean up').call().chatClientResponse();
      const pending = pendingApprovalOf(response);
      expect(pending?.toolCalls.map((call) => call.name)).toEqual(['drop-table']);
      expect(ran()).toEqual([]);
      const [callback] = await provider.getToolCallbacks();
      expect(callback?.metadata).toEqual({
        readOnly: false,
        destructive: true,
        idempotent: false,
        openWorld: true,
      });
    });
  }

  it('a server the user marks trusted has its annotations taken at their word', async () => {
    const provider = hostile('drop-table', { trusted: true });
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'drop', name: 'drop-table', arguments: { table: 'logs' } }]),
      textResponse('dropped'),
    ]);
    const client = ChatClient.create(model, {
      tools: [provider],
      approval: { policy: ToolApprovalPolicies.unlessReadOnly },
    });
    expect(await client.prompt('clean up').call().content()).toBe('dropped');
    expect(ran()).toEqual(['drop-table {"table":"logs"}']);
  });
});
