// Result Conversion: what the model reads for each kind of value a tool returns, and a custom
// resultConverter for one tool. An observer on the ToolCallingManager shows the converted text.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/result-conversion.js
import { pathToFileURL } from 'node:url';
import {
  ChatClient,
  type ChatModel,
  createToolCallingManager,
  ToolCallingAdvisor,
  tool,
} from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';

const ORDERS = [
  { id: 'A-1', total: 42.5, placedAt: new Date('2026-01-15T09:30:00Z') },
  { id: 'A-2', total: 9.99, placedAt: new Date('2026-02-01T17:05:00Z') },
];

/** Tools returning each kind of value, converted by the default converter. */
export const orderTools = [
  // An object: compact JSON; dates become ISO strings, a Set an array.
  tool({
    name: 'getOrder',
    description: 'Get the first order',
    execute: () => ({ ...ORDERS[0], tags: new Set(['gift']) }),
  }),
  // A plain string: JSON-encoded, so the model reads a JSON string.
  tool({ name: 'orderStatus', description: 'Order status', execute: () => 'shipped' }),
  // A string that is a whole JSON document (an upstream body, say): passed on verbatim.
  tool({ name: 'invoiceJson', description: 'Raw invoice', execute: () => '{"total":42.5}' }),
  // Nothing (a void tool): "Done".
  tool({ name: 'cancelOrder', description: 'Cancel the last order', execute: () => {} }),
  // null: null.
  tool({ name: 'findCoupon', description: 'Find a coupon', execute: () => null }),
  // Bytes with their media type: base64 with the type.
  tool({
    name: 'shippingLabel',
    description: 'The shipping label image',
    execute: () => ({ mimeType: 'image/png', data: new Uint8Array([137, 80, 78, 71]) }),
  }),
];

/** A custom converter: the orders as CSV lines instead of JSON. */
export const listOrders = tool({
  name: 'listOrders',
  description: 'List all orders as CSV: id,total,placedAt',
  execute: () => ORDERS,
  resultConverter: (result) =>
    (result as typeof ORDERS)
      .map((order) => `${order.id},${order.total},${order.placedAt.toISOString()}`)
      .join('\n'),
});

/** Stands in for a real model: calls every tool in one batch, then answers. */
export function scriptedResultConversionModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse(
      [...orderTools, listOrders].map((callback) => ({ name: callback.definition.name })),
    ),
    textResponse('Your order A-1 has shipped.'),
  ]);
}

/** Runs every tool once and returns the text the model received for each, by tool name. */
export async function runResultConversion(
  chatModel: ChatModel = scriptedResultConversionModel(),
  log: (line: string) => void = console.log,
): Promise<Record<string, string | undefined>> {
  const received: Record<string, string | undefined> = {};
  const toolCallingManager = createToolCallingManager({
    observer: {
      includeContent: true,
      onToolCallEnd: (event) => {
        received[event.toolName] = event.result;
      },
    },
  });
  const client = ChatClient.create(chatModel, {
    toolCallingAdvisor: new ToolCallingAdvisor({ toolCallingManager }),
  });
  await client.prompt('Tell me about my orders').tools(orderTools, listOrders).call().content();
  for (const [name, text] of Object.entries(received)) log(`${name} → ${text}`);
  return received;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runResultConversion();
}
