import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatModelRegistry, chatClientFromConfig, loadConfig } from '../../src/config/index.js';
import {
  ChatClient,
  CONVERSATION_ID,
  HIGHEST_PRECEDENCE,
  jsonSchema,
  type Message,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  tool,
} from '../../src/index.js';
import { SqliteChatMemoryRepository } from '../../src/memory/sqlite/index.js';
import { OpenAiResponsesChatModel } from '../../src/openai/index.js';
import {
  FixtureHttpServer,
  type FixtureReply,
  sendEvents,
  sendJson,
} from './support/fixture-http-server.js';
import { fixtureText, frameChunksAsSse, responsesStreamsOf } from './support/provider-fixtures.js';

// The Responses API model in the whole ChatClient tool loop, against recorded OpenAI and Azure
// traffic served over real HTTP: a reasoning model (gpt-5.1-codex-max, store: false) calls a
// calculator three times and answers. What matters is on the wire: every request after a tool
// round carries the reasoning item the model produced, with its encrypted content, right before
// the call it led to, so the model continues its own chain of thought.

const API_KEY = 'sk-responses-replay-0123456789abcdef';
const DIR = 'openai-responses';

interface RecordedStep {
  /** The stream of the step, as the server sent it. */
  events: string;
  /** The step's whole response (its `response.completed`), served as a non-streamed body. */
  body: Record<string, unknown>;
  /** The reasoning items and calls of the step, as their `output_item.done` events gave them. */
  doneItems: Record<string, unknown>[];
}

function recordedSteps(file: string): RecordedStep[] {
  return responsesStreamsOf(fixtureText(`${DIR}/${file}`)).map((lines) => {
    const events = lines.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const completed = events.find((event) => event.type === 'response.completed');
    return {
      events: frameChunksAsSse(lines, 'data'),
      body: completed?.response as Record<string, unknown>,
      doneItems: events
        .filter((event) => event.type === 'response.output_item.done')
        .map((event) => event.item as Record<string, unknown>),
    };
  });
}

function calculator() {
  const runs: { a: number; b: number; op: string }[] = [];
  const callback = tool({
    name: 'calculator',
    description: 'A minimal calculator for basic arithmetic. Call it once per step.',
    inputSchema: jsonSchema<{ a: number; b: number; op: string }>({
      type: 'object',
      properties: {
        a: { type: 'number', description: 'First operand.' },
        b: { type: 'number', description: 'Second operand.' },
        op: { type: 'string', enum: ['add', 'subtract', 'multiply', 'divide'] },
      },
      required: ['a', 'b', 'op'],
      additionalProperties: false,
    }),
    execute: (input) => {
      runs.push(input);
      const { a, b, op } = input;
      return op === 'add' ? a + b : op === 'subtract' ? a - b : op === 'multiply' ? a * b : a / b;
    },
  });
  return { callback, runs };
}

type InputItem = Record<string, unknown>;

function inputOf(request: { body: unknown } | undefined): InputItem[] {
  return (request?.body as { input?: InputItem[] } | undefined)?.input ?? [];
}

/** The reasoning item of a step as it must go back: id, summary and the encrypted content. */
function sentBack(item: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'reasoning',
    id: item.id,
    summary: item.summary,
    encrypted_content: item.encrypted_content,
  };
}

let server: FixtureHttpServer;
const directory = mkdtempSync(join(tmpdir(), 'toolloop-responses-replay-'));
beforeEach(async () => {
  server = new FixtureHttpServer();
  await server.start();
});
afterEach(() => server.stop());
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('OpenAI Responses API in the tool loop, over recorded traffic', () => {
  it.each(['stream', 'call'] as const)(
    '%s: reasoning crosses every tool round: the next request carries the reasoning item, encrypted, before its call',
    async (mode) => {
      const steps = recordedSteps('openai-reasoning-encrypted-content.1.chunks.txt');
      server.reply(
        ...steps.map(
          (step): FixtureReply =>
            mode === 'stream' ? sendEvents(step.events, 9) : sendJson(step.body),
        ),
      );
      const { callback, runs } = calculator();
      const model = new OpenAiResponsesChatModel({
        baseUrl: `${server.baseUrl}/v1`,
        apiKey: API_KEY,
        model: 'gpt-5.1-codex-max',
        reasoningEffort: 'high',
        reasoningSummary: 'detailed',
      });
      const spec = ChatClient.create(model)
        .prompt('Compute (12 + 7) * 3 * 10 with the calculator, one step at a time.')
        .tools(callback);
      let answer = '';
      if (mode === 'stream') {
        for await (const delta of spec.stream().content()) answer += delta;
      } else {
        const response = await spec.call().chatResponse();
        answer = response?.results[0]?.output.text ?? '';
        expect(response?.metadata.usage?.reasoningTokens).toBeGreaterThanOrEqual(0);
      }

      expect(answer).toBe('The final result is **570**.');
      expect(runs).toEqual([
        { a: 12, b: 7, op: 'add' },
        { a: 19, b: 3, op: 'multiply' },
        { a: 57, b: 10, op: 'multiply' },
      ]);
      expect(server.requests).toHaveLength(4);
      for (const request of server.requests) {
        expect(request.url).toBe('/v1/responses');
        expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
        expect(request.body).toMatchObject({
          store: false,
          include: ['reasoning.encrypted_content'],
          reasoning: { effort: 'high', summary: 'detailed' },
        });
      }

      // The second request: the user's message, then step 1's output items as the model made
      // them (the reasoning item with its encrypted content, then its call), then the result.
      const stepOne =
        mode === 'stream' ? steps[0]!.doneItems : (steps[0]!.body.output as InputItem[]);
      const [reasoning, call] = stepOne as Record<string, unknown>[];
      expect(reasoning?.encrypted_content).toMatch(/^gAAAAA/);
      expect(inputOf(server.requests[1])).toEqual([
        {
          role: 'user',
          content: 'Compute (12 + 7) * 3 * 10 with the calculator, one step at a time.',
        },
        sentBack(reasoning!),
        {
          type: 'function_call',
          call_id: call?.call_id,
          name: 'calculator',
          arguments: '{"a":12,"b":7,"op":"add"}',
          id: call?.id,
        },
        { type: 'function_call_output', call_id: call?.call_id, output: '19' },
      ]);
      // The last request still carries the first round's reasoning, and every round's calls.
      const last = inputOf(server.requests[3]);
      expect(last[1]).toEqual(sentBack(reasoning!));
      expect(
        last.filter((item) => item.type === 'function_call_output').map((item) => item.output),
      ).toEqual(['19', '57', '570']);
    },
  );

  it('keeps the reasoning through SQLite chat memory across a restart, and sends it on the next turn (Azure)', async () => {
    const steps = recordedSteps('azure-reasoning-encrypted-content.1.chunks.txt');
    const answer = recordedSteps('openai-reasoning-encrypted-content.1.chunks.txt')[3]!;
    server.reply(...steps.map((step) => sendEvents(step.events)), sendEvents(answer.events));
    const file = join(directory, 'memory.db');
    const { callback, runs } = calculator();
    const model = new OpenAiResponsesChatModel({
      baseUrl: `${server.baseUrl}/openai/v1`,
      apiKey: API_KEY,
      model: 'gpt-5.1-codex-max',
    });
    const clientOn = (database: Database.Database) =>
      ChatClient.create(model, {
        tools: [callback],
        advisors: [
          new MessageChatMemoryAdvisor({
            chatMemory: new MessageWindowChatMemory({
              repository: new SqliteChatMemoryRepository({ database }),
              maxMessages: 100,
            }),
            // Inside the tool loop: the tool rounds are stored too.
            order: HIGHEST_PRECEDENCE + 400,
          }),
        ],
      });
    const conversation = (a: { param(key: string, value: unknown): unknown }) =>
      a.param(CONVERSATION_ID, 'responses-restart');

    const first = new Database(file);
    let text = '';
    for await (const delta of clientOn(first)
      .prompt('Compute (12 + 7) * 3 * 10 with the calculator.')
      .advisors(conversation)
      .stream()
      .content())
      text += delta;
    first.close();
    expect(runs).toHaveLength(3);
    expect(text.length).toBeGreaterThan(0);

    // After the restart: a new connection reads what the first one stored.
    const second = new Database(file);
    const stored = await new SqliteChatMemoryRepository({ database: second }).findByConversationId(
      'responses-restart',
    );
    const firstRound = stored.find(
      (message): message is Extract<Message, { role: 'assistant' }> =>
        message.role === 'assistant' && message.toolCalls.length > 0,
    );
    const recordedReasoning = steps[0]!.doneItems[0]!;
    expect(firstRound?.metadata?.responseItems).toEqual([
      sentBack(recordedReasoning),
      { type: 'function_call', call_id: steps[0]!.doneItems[1]!.call_id },
    ]);
    let next = '';
    for await (const delta of clientOn(second)
      .prompt('Thanks. And the result?')
      .advisors(conversation)
      .stream()
      .content())
      next += delta;
    second.close();
    expect(next).toBe('The final result is **570**.');
    const nextTurn = inputOf(server.requests[4]);
    expect(nextTurn).toContainEqual(sentBack(recordedReasoning));
    expect(nextTurn.at(-1)).toEqual({ role: 'user', content: 'Thanks. And the result?' });
  });

  it("previousResponseId 'auto' with store: true sends only what the stored response lacks", async () => {
    const steps = recordedSteps('openai-reasoning-encrypted-content.1.chunks.txt');
    server.reply(...steps.map((step) => sendJson(step.body)));
    const { callback } = calculator();
    const model = new OpenAiResponsesChatModel({
      baseUrl: `${server.baseUrl}/v1`,
      apiKey: API_KEY,
      store: true,
      previousResponseId: 'auto',
    });
    await ChatClient.create(model).prompt('Compute it.').tools(callback).call().content();
    const second = server.requests[1]?.body as Record<string, unknown>;
    expect(second.previous_response_id).toBe(steps[0]!.body.id);
    expect(second.store).toBe(true);
    expect(second.include).toBeUndefined();
    expect(second.input).toEqual([
      { type: 'function_call_output', call_id: steps[0]!.doneItems[1]!.call_id, output: '19' },
    ]);
  });

  it('is created by the registry (openai-responses:<model>) and by a configuration naming it', async () => {
    const [step] = recordedSteps('lmstudio-tool-call.1.chunks.txt');
    const answer = recordedSteps('openai-reasoning-encrypted-content.1.chunks.txt')[3]!;
    server.reply(sendEvents(step!.events), sendJson(answer.body));
    const registry = new ChatModelRegistry();
    const model = await registry.create('openai-responses:zai-org/glm-4.7-flash', {
      baseUrl: `${server.baseUrl}/v1`,
      env: {},
    });
    expect(model).toBeInstanceOf(OpenAiResponsesChatModel);
    const chunks = [];
    for await (const chunk of model.stream!({
      messages: [{ role: 'user', text: 'Weather in San Francisco?' }],
      options: {},
    }))
      chunks.push(chunk);
    expect(server.requests[0]?.body).toMatchObject({
      model: 'zai-org/glm-4.7-flash',
      store: false,
    });

    const config = await loadConfig({
      env: {
        SPRING_AI_OPENAI_BASE_URL: `${server.baseUrl}/v1`,
        SPRING_AI_OPENAI_API_KEY: API_KEY,
        TOOLLOOP_MODEL: 'openai-responses:gpt-5-mini',
      },
    });
    const built = await chatClientFromConfig(config, { env: {} });
    expect(built.chatModel).toBeInstanceOf(OpenAiResponsesChatModel);
    expect(await built.client.prompt('Weather?').call().content()).toBe(
      'The final result is **570**.',
    );
    expect(server.requests[1]?.url).toBe('/v1/responses');
    expect(server.requests[1]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    await built.close();
  });
});
