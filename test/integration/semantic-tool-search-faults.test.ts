import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatClient } from '../../src/client/index.js';
import { OpenAiCompatibleEmbeddingModel } from '../../src/embeddings/index.js';
import { HashingEmbeddingModel } from '../../src/embeddings/testing/hashing-embedding-model.js';
import { CONVERSATION_ID } from '../../src/memory/index.js';
import type { TurnEvent } from '../../src/observability/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../../src/testing/index.js';
import {
  HybridToolIndex,
  LexicalToolIndex,
  ToolSearchToolCallingAdvisor,
  VectorToolIndex,
} from '../../src/tool-search/index.js';
import { generateToolLibrary } from '../../src/tool-search/testing/generate-tool-library.js';

// Semantic tool search against a real embeddings server over HTTP (the OpenAI embeddings API, as
// Ollama and llama.cpp serve it) that fails: it answers 500, or never answers. Tool search goes on
// lexically, the turn finishes, and the failure is an event; when the server is back, the vector
// side is used again.

let mode: 'ok' | 'error' | 'hang' = 'ok';
let requests = 0;
let closedUnanswered = 0;
const hashing = new HashingEmbeddingModel();
let server: Server;
let baseUrl: string;

function handle(request: IncomingMessage, response: ServerResponse): void {
  let raw = '';
  request.on('data', (chunk) => {
    raw += chunk;
  });
  request.on('end', async () => {
    requests++;
    if (mode === 'hang') {
      response.on('close', () => {
        if (!response.writableEnded) closedUnanswered++;
      });
      return;
    }
    response.setHeader('content-type', 'application/json');
    if (mode === 'error') {
      response.statusCode = 500;
      response.end(
        JSON.stringify({ error: { message: 'model runner crashed', type: 'server_error' } }),
      );
      return;
    }
    const body = JSON.parse(raw) as { model: string; input: string[] };
    const vectors = await hashing.embed(body.input);
    response.end(
      JSON.stringify({
        object: 'list',
        model: body.model,
        data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      }),
    );
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The seed article's 230-tool enterprise library. */
const library = generateToolLibrary();

const embeddingModel = () =>
  new OpenAiCompatibleEmbeddingModel({ baseUrl, model: 'nomic-embed-text', env: {} });

async function turn(advisor: ToolSearchToolCallingAdvisor, conversation: string) {
  const events: TurnEvent[] = [];
  const model = new ScriptedChatModel([
    toolCallResponse([
      { id: 'search-1', name: 'toolSearchTool', arguments: { query: 'look up an invoice' } },
    ]),
    toolCallResponse([
      { id: 'call-1', name: 'finance_lookup_invoice', arguments: { invoice_id: 'INV-7' } },
    ]),
    textResponse('Invoice found.'),
  ]);
  const answer = await ChatClient.create(model, {
    advisors: [advisor],
    listeners: [(event) => events.push(event)],
  })
    .prompt('Find invoice INV-7')
    .tools(...library)
    .advisors((a) => a.param(CONVERSATION_ID, conversation))
    .call()
    .content();
  return {
    answer,
    fallbacks: events.filter((event) => event.type === 'tool-search-fallback'),
  };
}

describe('semantic tool search over an embeddings server that fails', () => {
  it('goes on lexically when the server answers 500, reports it, and recovers', async () => {
    mode = 'error';
    const advisor = new ToolSearchToolCallingAdvisor({
      toolIndex: new HybridToolIndex({ embeddingModel: embeddingModel(), retryAfterMs: 0 }),
    });
    const failed = await turn(advisor, 'server-500');
    expect(failed.answer).toBe('Invoice found.');
    expect(failed.fallbacks).toMatchObject([
      {
        phase: 'index',
        source: 'VectorToolIndex',
        reason: 'error',
        error: {
          type: 'ChatModelError',
          code: 'CHAT_MODEL_FAILED',
          message: expect.stringContaining('HTTP 500'),
        },
      },
      { phase: 'search', toolCallId: 'search-1', reason: 'error' },
    ]);
    mode = 'ok';
    const before = requests;
    const recovered = await turn(advisor, 'server-500');
    expect(recovered.answer).toBe('Invoice found.');
    expect(recovered.fallbacks).toEqual([]);
    // The waiting tools, then the query.
    expect(requests - before).toBe(2);
  });

  it('stops waiting for a server that never answers and closes the request', async () => {
    mode = 'hang';
    const index = new HybridToolIndex({
      indexes: [
        new LexicalToolIndex(),
        new VectorToolIndex({ embeddingModel: embeddingModel(), timeoutMs: 500 }),
      ],
      indexTimeoutMs: 200,
      retryAfterMs: 60_000,
    });
    const fallbacks: unknown[] = [];
    await index.indexTools(
      's',
      library.map(({ definition }) => ({
        toolName: definition.name,
        summary: definition.description,
      })),
      { onFallback: (fallback) => fallbacks.push(fallback) },
    );
    expect(fallbacks).toMatchObject([
      { phase: 'index', source: 'VectorToolIndex', reason: 'timeout' },
    ]);
    // The embedding goes on in the background; the search does not wait for it.
    const early = await index.search({
      sessionId: 's',
      query: 'look up an invoice by its identifier',
    });
    expect(early.toolReferences[0]?.toolName).toBe('finance_lookup_invoice');
    expect(early.searchMetadata.fallbacks).toEqual([
      { phase: 'search', source: 'VectorToolIndex', reason: 'unavailable' },
    ]);
    // The vector index's own timeout ends the request.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(closedUnanswered).toBe(1);
    const later = await index.search({
      sessionId: 's',
      query: 'look up an invoice by its identifier',
    });
    expect(later.toolReferences[0]?.toolName).toBe('finance_lookup_invoice');
    expect(later.searchMetadata.fallbacks).toEqual([
      { phase: 'search', source: 'VectorToolIndex', reason: 'unavailable' },
    ]);
    mode = 'ok';
  });
});
