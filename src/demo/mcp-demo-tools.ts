// The tools the MCP scenarios serve from a child process: `toolloop mcp serve <this module>`.
// Plain JSON Schemas, so the module needs nothing but toolloop.
import { jsonSchema, tool } from '../index.js';

const ORDERS: Record<string, object> = {
  'A-1001': { orderId: 'A-1001', status: 'SHIPPED', carrier: 'DHL', eta: '2026-09-25' },
};

/** `get_order_status`: the status of an order, from a fixed table. */
export const getOrderStatus = tool({
  name: 'get_order_status',
  description: 'Get the shipping status of an order by its id, e.g. A-1001.',
  inputSchema: jsonSchema<{ orderId: string }>({
    type: 'object',
    properties: { orderId: { type: 'string', description: 'The order id' } },
    required: ['orderId'],
  }),
  execute: ({ orderId }) => ORDERS[orderId] ?? { orderId, error: 'no such order' },
});

/** `add`: the sum of two numbers. */
export const add = tool({
  name: 'add',
  description: 'Add two numbers.',
  inputSchema: jsonSchema<{ a: number; b: number }>({
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  }),
  execute: ({ a, b }) => a + b,
});
