import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
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
    // 31 characters took 6.4 s on a backtracking engine; a string that fills the argument limit
    // is over the pattern budget and refused without being matched.
    const attack = `${'a'.repeat(30)}!`;
    const huge = `${'a'.repeat(1_000_000)}!`;
    const model = new ScriptedChatModel([
      toolCallResponse([
        { id: 'short', name: 'redos', arguments: { text: attack } },
        { id: 'huge', name: 'redos', arguments: { text: huge } },
        { id: 'keys', name: 'redos-keys', arguments: { [attack]: 'x' } },
        { id: 'fine', name: 'redos', arguments: { text: 'aaaa' } },
      ]),
      textResponse('done'),
    ]);
    const client = ChatClient.create(model, { tools: [provider] });
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    await client.prompt('go').call().content();
    clearInterval(ticker);
    delay.disable();

    const responses = toolResponses(model.prompts[1]?.messages ?? []);
    expect(responses.map((response) => [response.id, response.isError === true])).toEqual([
      ['short', true],
      ['huge', true],
      ['keys', true],
      ['fine', false],
    ]);
    expect(responses[0]?.responseData).toMatch(/must match pattern/);
    expect(responses[1]?.responseData).toMatch(/too long to check against the schema's patterns/);
    expect(responses[2]?.responseData).toMatch(/is not an allowed property/);
    // Only the valid call reached the server.
    expect(ran()).toEqual(['redos {"text":"aaaa"}']);
    // Parsing a 1 MB argument costs a few milliseconds; a backtracking match costs seconds.
    expect(delay.max / 1e6).toBeLessThan(200);
    expect(ticks).toBeGreaterThan(0);
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
