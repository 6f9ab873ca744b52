import { describe, expect, it } from 'vitest';
import { ChatClient } from '../client/index.js';
import type { EmbeddingModel } from '../embeddings/embedding-model.js';
import { HashingEmbeddingModel } from '../embeddings/testing/hashing-embedding-model.js';
import { CONVERSATION_ID } from '../memory/index.js';
import type { ToolResponseMessage } from '../messages/index.js';
import type { TurnEvent } from '../observability/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { HybridToolIndex } from './hybrid-tool-index.js';
import { generateToolLibrary } from './testing/generate-tool-library.js';
import { ToolSearchToolCallingAdvisor } from './tool-search-tool-calling-advisor.js';

/** An embedding model that is down until `up` is set. */
class FlakyEmbeddingModel implements EmbeddingModel {
  readonly id = 'flaky';
  up = false;
  readonly #hashing = new HashingEmbeddingModel();
  async embed(texts: readonly string[]): Promise<number[][]> {
    if (!this.up) throw new Error('connect ECONNREFUSED 127.0.0.1:11434');
    return this.#hashing.embed(texts);
  }
}

/** The seed article's 230-tool enterprise library. */
const library = generateToolLibrary();

function scriptedTurn(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([
      { id: 'search-1', name: 'toolSearchTool', arguments: { query: 'look up an invoice' } },
    ]),
    toolCallResponse([
      { id: 'call-1', name: 'finance_lookup_invoice', arguments: { invoice_id: 'INV-7' } },
    ]),
    textResponse('Invoice found.'),
  ]);
}

describe('tool search with a failing embedding model, in a turn', () => {
  for (const mode of ['call', 'stream'] as const) {
    it(`goes on lexically and reports each fallback as a turn event (${mode})`, async () => {
      const embeddingModel = new FlakyEmbeddingModel();
      const advisor = new ToolSearchToolCallingAdvisor({
        toolIndex: new HybridToolIndex({ embeddingModel, retryAfterMs: 0 }),
      });
      const events: TurnEvent[] = [];
      const model = scriptedTurn();
      const client = ChatClient.create(model, {
        advisors: [advisor],
        listeners: [(event) => events.push(event)],
      });
      const request = client
        .prompt('Find invoice INV-7')
        .tools(...library)
        .advisors((a) => a.param(CONVERSATION_ID, `conversation-${mode}`));
      let answer: string | null;
      if (mode === 'call') {
        answer = await request.call().content();
      } else {
        answer = '';
        for await (const text of request.stream().content()) answer += text;
      }
      expect(answer).toBe('Invoice found.');
      const searchResult = model.prompts[1]?.messages.at(-1) as ToolResponseMessage;
      expect(JSON.parse(searchResult.responses[0]?.responseData ?? '{}').found[0]).toBe(
        'finance_lookup_invoice',
      );
      const fallbacks = events.filter((event) => event.type === 'tool-search-fallback');
      const turnId = events[0]?.turnId;
      expect(fallbacks).toEqual([
        {
          type: 'tool-search-fallback',
          turnId,
          timestamp: expect.any(Number),
          iteration: 0,
          phase: 'index',
          source: 'VectorToolIndex',
          reason: 'error',
          error: { type: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:11434' },
        },
        {
          type: 'tool-search-fallback',
          turnId,
          timestamp: expect.any(Number),
          iteration: 1,
          phase: 'search',
          toolCallId: 'search-1',
          source: 'VectorToolIndex',
          reason: 'error',
          error: { type: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:11434' },
        },
      ]);
      // The indexing fallback is reported before the first model call, in the turn's order.
      const types = events.map((event) => event.type);
      expect(types.indexOf('tool-search-fallback')).toBeLessThan(types.indexOf('model-call-start'));
    });
  }

  it('reports nothing once the model is back: the waiting tools are embedded first', async () => {
    const embeddingModel = new FlakyEmbeddingModel();
    const advisor = new ToolSearchToolCallingAdvisor({
      toolIndex: new HybridToolIndex({ embeddingModel, retryAfterMs: 0 }),
    });
    const events: TurnEvent[] = [];
    const run = (model: ScriptedChatModel) =>
      ChatClient.create(model, { advisors: [advisor], listeners: [(event) => events.push(event)] })
        .prompt('Find invoice INV-7')
        .tools(...library)
        .advisors((a) => a.param(CONVERSATION_ID, 'recovering'))
        .call()
        .content();
    await run(scriptedTurn());
    expect(events.filter((event) => event.type === 'tool-search-fallback')).toHaveLength(2);
    events.length = 0;
    embeddingModel.up = true;
    expect(await run(scriptedTurn())).toBe('Invoice found.');
    expect(events.filter((event) => event.type === 'tool-search-fallback')).toEqual([]);
  });

  it('builds no event when nobody listens', async () => {
    const advisor = new ToolSearchToolCallingAdvisor({
      toolIndex: new HybridToolIndex({ embeddingModel: new FlakyEmbeddingModel() }),
    });
    const answer = await ChatClient.create(scriptedTurn(), { advisors: [advisor] })
      .prompt('Find invoice INV-7')
      .tools(...library)
      .call()
      .content();
    expect(answer).toBe('Invoice found.');
  });
});
