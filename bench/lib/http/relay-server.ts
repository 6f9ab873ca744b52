import { createServer } from 'node:http';
import { collectGarbage } from '../harness.js';
import { listenForLoad } from './child-rpc.js';
import { RELAY_CONTESTANTS, type RelayHandler } from './relay-contestants.js';

/**
 * The measured web server of the end-to-end benchmark, run in its own process: `POST /<id>`
 * runs one conversation of contestant `<id>` against the fake provider (`PROVIDER_URL`) and
 * streams its text to the client. Only this process's CPU time and memory are measured; the
 * provider and the clients run elsewhere. `RELAY_CONTESTANTS` (comma-separated ids) limits which
 * frameworks are set up, so a memory measurement holds only one.
 */

const providerUrl = process.env.PROVIDER_URL;
if (providerUrl === undefined) throw new Error('PROVIDER_URL is not set');
const only = process.env.RELAY_CONTESTANTS?.split(',');
const handlers = new Map<string, RelayHandler>();
for (const contestant of RELAY_CONTESTANTS) {
  if (only === undefined || only.includes(contestant.id)) {
    handlers.set(contestant.id, contestant.setup(providerUrl));
  }
}
let conversations = 0;
const failures: string[] = [];

const server = createServer((request, response) => {
  request.resume();
  const handler = handlers.get(request.url?.slice(1) ?? '');
  if (handler === undefined) {
    response.writeHead(404).end();
    return;
  }
  conversations++;
  handler(response).catch((error: unknown) => {
    if (failures.length < 10) {
      failures.push(`${request.url}: ${error instanceof Error ? error.stack : String(error)}`);
    }
    if (!response.headersSent) response.writeHead(500);
    response.end('event: error\ndata: {}\n\n');
  });
});
listenForLoad(server, {
  cpu: () => process.cpuUsage(),
  memory: () => {
    collectGarbage();
    const usage = process.memoryUsage();
    return { rss: usage.rss, heapUsed: usage.heapUsed };
  },
  stats: () => ({ conversations, failures }),
});
