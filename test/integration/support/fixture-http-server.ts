import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request the fixture server received. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** Set when the client closed the connection before the response was complete. */
  closedEarly: boolean;
  /** Resolves once the connection of this request closed. */
  closed: Promise<void>;
}

/** How the server answers one request. */
export type FixtureReply = (
  request: IncomingMessage,
  response: ServerResponse,
) => void | Promise<void>;

/** Serves recorded bytes over real HTTP on 127.0.0.1 with an ephemeral port. */
export class FixtureHttpServer {
  readonly requests: RecordedRequest[] = [];
  private readonly replies: FixtureReply[] = [];
  private fallbackReply: FixtureReply | undefined;
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private port = 0;

  /** Queues the answers of the next requests, in order. */
  reply(...replies: FixtureReply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** Answers every request with `reply` once the queue is empty (until called again). */
  replyAlways(reply: FixtureReply | undefined): this {
    this.fallbackReply = reply;
    return this;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let closeResolve: () => void = () => undefined;
    const recorded: RecordedRequest = {
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      body: text === '' ? undefined : JSON.parse(text),
      closedEarly: false,
      closed: new Promise<void>((resolve) => {
        closeResolve = resolve;
      }),
    };
    this.requests.push(recorded);
    response.on('close', () => {
      if (!response.writableFinished) recorded.closedEarly = true;
      closeResolve();
    });
    const reply = this.replies.shift() ?? this.fallbackReply;
    if (!reply) {
      response.writeHead(500, { 'content-type': 'text/plain' }).end('no scripted reply left');
      return;
    }
    await reply(request, response);
  }
}

/** Sends `body` with the given status and headers, written in a few pieces at odd offsets. */
export function sendBody(
  body: string | Buffer,
  options: { status?: number; headers?: Record<string, string>; pieces?: number } = {},
): FixtureReply {
  return async (_request, response) => {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    response.writeHead(options.status ?? 200, options.headers ?? {});
    const pieces = Math.max(1, options.pieces ?? 3);
    const size = Math.ceil(bytes.length / pieces) + 1;
    for (let offset = 0; offset < bytes.length; offset += size) {
      response.write(bytes.subarray(offset, offset + size));
      await new Promise((resolve) => setImmediate(resolve));
    }
    response.end();
  };
}

/** An SSE reply. */
export function sendEvents(body: string | Buffer, pieces = 5): FixtureReply {
  return sendBody(body, {
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    pieces,
  });
}

/** A JSON reply. */
export function sendJson(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): FixtureReply {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return sendBody(text, { status, headers: { 'content-type': 'application/json', ...headers } });
}
