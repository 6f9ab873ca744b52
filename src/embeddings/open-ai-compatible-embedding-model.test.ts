import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatModelError } from '../errors/index.js';
import { OpenAiCompatibleEmbeddingModel } from './open-ai-compatible-embedding-model.js';

interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: { model: string; input: string[]; encoding_format: string; dimensions?: number };
}

const received: Received[] = [];
let mode:
  | 'ok'
  | 'shuffled'
  | 'unauthorized'
  | 'echo'
  | 'overloaded'
  | 'short'
  | 'html'
  | 'overloaded-once'
  | 'silent'
  | 'large' = 'ok';
let server: Server;
let baseUrl: string;

/** A vector derived from the text, so the test can check which vector belongs to which input. */
const vectorFor = (text: string) => [text.length, text.charCodeAt(0) || 0, 0.5];

function handle(request: IncomingMessage, response: ServerResponse): void {
  let raw = '';
  request.on('data', (chunk) => {
    raw += chunk;
  });
  request.on('end', () => {
    const body = JSON.parse(raw) as Received['body'];
    received.push({ url: request.url ?? '', headers: request.headers, body });
    response.setHeader('content-type', 'application/json');
    if (mode === 'unauthorized') {
      response.statusCode = 401;
      response.end(
        JSON.stringify({
          error: {
            message:
              'Incorrect API key provided: sk-test-secret-123. You can find your API key at https://platform.openai.com/account/api-keys.',
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        }),
      );
      return;
    }
    if (mode === 'echo') {
      // A gateway that echoes the request headers it rejected.
      const seen = Object.entries(request.headers)
        .map(([name, value]) => `${name}=${String(value)}`)
        .join('; ');
      response.statusCode = 401;
      response.end(JSON.stringify({ error: { message: `rejected: ${seen}` } }));
      return;
    }
    if (mode === 'overloaded') {
      response.statusCode = 503;
      response.end(
        JSON.stringify({ error: { message: 'The server is overloaded', type: 'server_error' } }),
      );
      return;
    }
    if (mode === 'overloaded-once') {
      mode = 'ok';
      response.statusCode = 503;
      response.setHeader('retry-after-ms', '10');
      response.end(JSON.stringify({ error: { message: 'busy' } }));
      return;
    }
    // Accepts the request and never answers.
    if (mode === 'silent') return;
    if (mode === 'large') {
      // What text-embedding-3-large returns for a batch: 3,072 numbers per input, as JSON text.
      const embedding = Array.from({ length: 3072 }, (_, i) => -0.012345678 + i * 1e-9);
      response.end(
        JSON.stringify({
          object: 'list',
          data: body.input.map((_, index) => ({ object: 'embedding', index, embedding })),
        }),
      );
      return;
    }
    if (mode === 'html') {
      response.setHeader('content-type', 'text/html');
      response.end('<html>gateway</html>');
      return;
    }
    const data = body.input.map((text, index) => ({
      object: 'embedding',
      index,
      embedding: vectorFor(text),
    }));
    if (mode === 'shuffled') data.reverse();
    if (mode === 'short') data.pop();
    response.end(
      JSON.stringify({
        object: 'list',
        data,
        model: body.model,
        usage: { prompt_tokens: body.input.length * 3, total_tokens: body.input.length * 3 },
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
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const reset = (next: typeof mode) => {
  mode = next;
  received.length = 0;
};

describe('OpenAiCompatibleEmbeddingModel', () => {
  it('requires a model and a positive batch size', () => {
    expect(() => new OpenAiCompatibleEmbeddingModel({ model: ' ' })).toThrow('model is required');
    expect(() => new OpenAiCompatibleEmbeddingModel({ model: 'm', maxBatchSize: 0 })).toThrow(
      'maxBatchSize must be a positive integer',
    );
  });

  it('names its vector space by model and dimensions, unless given an id', () => {
    expect(
      new OpenAiCompatibleEmbeddingModel({ baseUrl, model: 'nomic-embed-text', env: {} }).id,
    ).toBe('nomic-embed-text');
    expect(
      new OpenAiCompatibleEmbeddingModel({
        baseUrl,
        model: 'text-embedding-3-small',
        dimensions: 256,
        env: {},
      }).id,
    ).toBe('text-embedding-3-small@256');
    expect(
      new OpenAiCompatibleEmbeddingModel({ baseUrl, model: 'default', id: 'bge-m3-q8', env: {} })
        .id,
    ).toBe('bge-m3-q8');
  });

  it('posts to {baseUrl}/embeddings with model, input, key and dimensions', async () => {
    reset('ok');
    const model = new OpenAiCompatibleEmbeddingModel({
      baseUrl: `${baseUrl}/`,
      apiKey: 'sk-test-secret-123',
      model: 'text-embedding-3-small',
      dimensions: 3,
      headers: { 'x-team': 'search' },
    });
    const vectors = await model.embed(['alpha', 'be']);
    expect(vectors).toEqual([vectorFor('alpha'), vectorFor('be')]);
    expect(received).toHaveLength(1);
    expect(received[0]?.url).toBe('/v1/embeddings');
    expect(received[0]?.headers.authorization).toBe('Bearer sk-test-secret-123');
    expect(received[0]?.headers['x-team']).toBe('search');
    expect(received[0]?.body).toEqual({
      model: 'text-embedding-3-small',
      input: ['alpha', 'be'],
      encoding_format: 'float',
      dimensions: 3,
    });
  });

  it('splits inputs into batches and keeps input order, also when the server reorders', async () => {
    reset('shuffled');
    const model = new OpenAiCompatibleEmbeddingModel({
      baseUrl,
      model: 'nomic-embed-text',
      maxBatchSize: 2,
      env: {},
    });
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee'];
    expect(await model.embed(texts)).toEqual(texts.map(vectorFor));
    expect(received.map((r) => r.body.input)).toEqual([['a', 'bb'], ['ccc', 'dddd'], ['eeeee']]);
    expect(received[0]?.headers.authorization).toBeUndefined();
  });

  it('fails with the status, without the API key, and marks retryable errors', async () => {
    reset('unauthorized');
    const model = new OpenAiCompatibleEmbeddingModel({
      baseUrl,
      apiKey: 'sk-test-secret-123',
      model: 'm',
    });
    const error = await model.embed(['x']).catch((e) => e);
    expect(error).toBeInstanceOf(ChatModelError);
    expect(error.status).toBe(401);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('HTTP 401');
    expect(error.message).toContain('Incorrect API key provided');
    expect(error.message).not.toContain('sk-test-secret-123');
    reset('overloaded');
    const overloaded = await model.embed(['x']).catch((e) => e);
    expect(overloaded.status).toBe(503);
    expect(overloaded.retryable).toBe(true);
  });

  it('retries a retryable failure only when maxRetries says so', async () => {
    reset('overloaded-once');
    const once = new OpenAiCompatibleEmbeddingModel({ baseUrl, model: 'm', env: {} });
    expect((await once.embed(['x']).catch((e) => e)).status).toBe(503);
    reset('overloaded-once');
    const retrying = new OpenAiCompatibleEmbeddingModel({
      baseUrl,
      model: 'm',
      env: {},
      maxRetries: 1,
    });
    expect(await retrying.embed(['abc'])).toEqual([vectorFor('abc')]);
    expect(received).toHaveLength(2);
  });

  it('gives up on a server that never answers after timeoutMs', async () => {
    reset('silent');
    const model = new OpenAiCompatibleEmbeddingModel({
      baseUrl,
      model: 'm',
      env: {},
      timeoutMs: 200,
    });
    const error = await model.embed(['x']).catch((e) => e);
    expect(error).toBeInstanceOf(ChatModelError);
    expect(error.message).toMatch(/time/i);
  });

  it('takes a full batch of 3,072-number vectors by default, and honours a smaller cap', async () => {
    reset('large');
    const texts = Array.from({ length: 256 }, (_, i) => `tool ${i}`);
    const model = new OpenAiCompatibleEmbeddingModel({ baseUrl, model: 'm', env: {} });
    const vectors = await model.embed(texts);
    expect(vectors).toHaveLength(256);
    expect(vectors[255]).toHaveLength(3072);
    const capped = new OpenAiCompatibleEmbeddingModel({
      baseUrl,
      model: 'm',
      env: {},
      maxResponseBytes: 1_000_000,
    });
    const error = await capped.embed(texts).catch((e) => e);
    expect(error).toBeInstanceOf(ChatModelError);
    expect(error.message).toContain('1000000');
  });

  it('refuses bad limits and misspelt options', () => {
    const make = (extra: Record<string, unknown>) => () =>
      new OpenAiCompatibleEmbeddingModel({ baseUrl, model: 'm', env: {}, ...extra });
    expect(make({ maxRetries: -1 })).toThrow('maxRetries must be an integer >= 0');
    expect(make({ maxResponseBytes: 0 })).toThrow('maxResponseBytes must be a positive integer');
    expect(make({ timeoutMs: 0 })).toThrow('timeoutMs');
    expect(make({ timeout: 5 })).toThrow(
      "OpenAiCompatibleEmbeddingModel has no option 'timeout' (did you mean 'timeoutMs'?)",
    );
  });

  it('keeps every credential header value out of the error', async () => {
    reset('echo');
    const secrets = ['AZURE-EMBED-SENTINEL-4b8e1c7a9d2f', 'sk-EMBED-SENTINEL-9c2f7e1a4d8b'];
    const model = new OpenAiCompatibleEmbeddingModel({
      baseUrl,
      apiKey: secrets[1],
      model: 'm',
      headers: { 'api-key': secrets[0] as string },
    });
    const error = await model.embed(['x']).catch((e) => e);
    expect(error).toBeInstanceOf(ChatModelError);
    expect(error.status).toBe(401);
    for (const secret of secrets) {
      for (let start = 0; start + 8 <= secret.length; start++) {
        expect(error.message).not.toContain(secret.slice(start, start + 8));
      }
    }
  });

  it('rejects a response with missing vectors or a body that is not JSON', async () => {
    const model = new OpenAiCompatibleEmbeddingModel({ baseUrl, model: 'm' });
    reset('short');
    await expect(model.embed(['a', 'b'])).rejects.toThrow('expected 2 embeddings');
    reset('html');
    await expect(model.embed(['a'])).rejects.toThrow('the body is an HTML page, not JSON');
  });

  it('reports an unreachable server as retryable, and passes an abort through', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const model = new OpenAiCompatibleEmbeddingModel({
      baseUrl: `http://127.0.0.1:${port}`,
      model: 'm',
    });
    const error = await model.embed(['a']).catch((e) => e);
    expect(error).toBeInstanceOf(ChatModelError);
    expect(error.retryable).toBe(true);
    reset('ok');
    const aborted = AbortSignal.abort();
    const live = new OpenAiCompatibleEmbeddingModel({ baseUrl, model: 'm' });
    const abortError = await live.embed(['a'], { signal: aborted }).catch((e) => e);
    expect(abortError).not.toBeInstanceOf(ChatModelError);
    expect(abortError.name).toBe('AbortError');
  });
});

describe('OpenAiCompatibleEmbeddingModel against a misrouted server', () => {
  /** A server answering every request with `reply`, and counting the requests. */
  async function serverAnswering(
    reply: (response: ServerResponse) => void,
  ): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
    let requests = 0;
    const other = createServer((request, response) => {
      requests++;
      request.resume();
      request.on('end', () => reply(response));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(other.address() as AddressInfo).port}`,
      requests: () => requests,
      close: () => new Promise<void>((resolve) => other.close(() => resolve())),
    };
  }

  it('refuses a redirect, so the key and headers never reach another address', async () => {
    const elsewhere = await serverAnswering((response) => response.end('{}'));
    const redirecting = await serverAnswering((response) => {
      response.writeHead(307, { location: `${elsewhere.url}/v1/embeddings` });
      response.end();
    });
    try {
      const model = new OpenAiCompatibleEmbeddingModel({
        baseUrl: redirecting.url,
        apiKey: 'sk-redirect-secret',
        headers: { 'x-gateway-key': 'gateway-secret' },
        model: 'm',
        env: {},
      });
      const error = await model.embed(['a']).catch((e) => e);
      expect(error).toBeInstanceOf(ChatModelError);
      expect(error.message).toContain('redirect');
      expect(elsewhere.requests()).toBe(0);
    } finally {
      await redirecting.close();
      await elsewhere.close();
    }
  });

  it('names the address and says what a plain-text or HTML error body said', async () => {
    const plain = await serverAnswering((response) => {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('404 page not found');
    });
    const html = await serverAnswering((response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>');
    });
    try {
      const notFound = await new OpenAiCompatibleEmbeddingModel({
        baseUrl: plain.url,
        model: 'm',
        env: {},
      })
        .embed(['a'])
        .catch((e) => e);
      expect(notFound.status).toBe(404);
      expect(notFound.message).toContain(`POST ${plain.url}/embeddings`);
      expect(notFound.message).toContain('404 page not found');
      const badGateway = await new OpenAiCompatibleEmbeddingModel({
        baseUrl: html.url,
        model: 'm',
        env: {},
      })
        .embed(['a'])
        .catch((e) => e);
      expect(badGateway.retryable).toBe(true);
      expect(badGateway.message).toContain('an HTML page ("502 Bad Gateway")');
    } finally {
      await plain.close();
      await html.close();
    }
  });
});
