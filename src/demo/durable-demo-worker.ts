// A worker process of the durable-turn scenario of the demo (durable-demo.ts starts two of them).
// It registers the `refunds` agent and runs its turns until it is killed; it prints what it does as
// `LOG <text>` lines, `MARK refund-recorded` once a refund is in the ledger, and takes the command
// `RECOVER <workerId>` on stdin. Configured by DEMO_DATABASE_URL, DEMO_WORKER_ID, DEMO_LEDGER.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { DbosTurnWorker } from '../durable/index.js';
import {
  ChatClient,
  type ChatModel,
  type ChatResponse,
  type Prompt,
  type ToolContext,
  tool,
} from '../index.js';
import { textResponse, toolCallResponse } from '../testing/index.js';

const ledger = process.env.DEMO_LEDGER as string;
const say = (text: string) => process.stdout.write(`LOG ${text}\n`);

/**
 * Plays the model's part by reading the conversation: after the user, look the order up; after
 * the lookup, refund; after the refund, email the customer; after the email, answer.
 */
class RefundDeskModel implements ChatModel {
  async call(prompt: Prompt): Promise<ChatResponse> {
    const last = prompt.messages.at(-1);
    const previous = last?.role === 'tool' ? last.responses[0]?.name : undefined;
    await sleep(150);
    if (previous === undefined) {
      say('model call: look the order up');
      return toolCallResponse([{ id: 'r1', name: 'lookup_order', arguments: { order: 42 } }]);
    }
    if (previous === 'lookup_order') {
      say('model call: refund it');
      return toolCallResponse([
        { id: 'r2', name: 'issue_refund', arguments: { order: 42, amount: 30 } },
      ]);
    }
    if (previous === 'issue_refund') {
      say('model call: tell the customer');
      return toolCallResponse([{ id: 'r3', name: 'email_customer', arguments: { order: 42 } }]);
    }
    say('model call: answer');
    return textResponse('Order 42 is refunded (30 EUR) and the customer has been told.');
  }
}

const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Finds an order',
  inputSchema: { type: 'object', properties: { order: { type: 'number' } } },
  readOnly: true,
  execute: ({ order }) => {
    say(`lookup_order(${order})`);
    return `order ${order}: 2 books, 30 EUR, paid by card`;
  },
});

/** A payment API that honours idempotency keys: the same key gets the same refund, once. */
const issueRefund = tool({
  name: 'issue_refund',
  description: 'Refunds an order to its card',
  inputSchema: {
    type: 'object',
    properties: { order: { type: 'number' }, amount: { type: 'number' } },
  },
  idempotent: true,
  execute: async ({ order, amount }, context: ToolContext) => {
    const key = context.idempotencyKey as string;
    const entries = existsSync(ledger)
      ? readFileSync(ledger, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { key: string; refund: string })
      : [];
    const known = entries.find((entry) => entry.key === key);
    if (known !== undefined) {
      say(
        `issue_refund: the payment API already has key ${key}: it returns ${known.refund}, no second refund`,
      );
      return `${known.refund} issued: ${amount} EUR for order ${order}`;
    }
    const refund = `R-${entries.length + 1}`;
    appendFileSync(ledger, `${JSON.stringify({ key, refund })}\n`);
    say(`issue_refund: ${refund} written to the payment ledger with key ${key}`);
    process.stdout.write('MARK refund-recorded\n');
    // The refund is made; its checkpoint is not written yet.
    await sleep(1000);
    return `${refund} issued: ${amount} EUR for order ${order}`;
  },
});

const emailCustomer = tool({
  name: 'email_customer',
  description: 'Emails the customer about their order',
  inputSchema: { type: 'object', properties: { order: { type: 'number' } } },
  execute: ({ order }) => {
    say(`email_customer(${order})`);
    return 'email sent';
  },
});

const worker = new DbosTurnWorker({
  systemDatabaseUrl: process.env.DEMO_DATABASE_URL as string,
  workerId: process.env.DEMO_WORKER_ID as string,
  version: 'demo-1',
  queue: { pollingIntervalMs: 100 },
  migrate: false,
  logLevel: 'error',
});
worker.agent(
  'refunds',
  ChatClient.create(new RefundDeskModel(), { tools: [lookupOrder, issueRefund, emailCustomer] }),
);
await worker.launch();
process.stdout.write('READY\n');
createInterface({ input: process.stdin }).on('line', async (line) => {
  const [command, workerId] = line.split(' ');
  if (command === 'RECOVER' && workerId !== undefined) {
    const recovered = await worker.recoverWorker(workerId);
    process.stdout.write(`RECOVERED ${recovered.join(',')}\n`);
  }
});
process.on('SIGTERM', () => {
  void worker.shutdown().then(() => process.exit(0));
});
