import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatClient } from '../../client/chat-client.js';
import { InvalidArgumentError, ToolDefinitionError } from '../../errors/index.js';
import { ScriptedChatModel, textResponse } from '../../testing/index.js';
import { tool } from '../tool.js';
import { schemaShapeKeys } from './schema-shape.js';

// The MCP SDK's server.tool() takes a "raw shape", an object of Zod schemas; written as a tool's
// inputSchema it looks like a JSON Schema object to the type system.
const shape = { city: z.string(), days: z.number().optional() };

describe('an object of Zod schemas given as a schema', () => {
  it('is recognised by its schema-valued keys; a JSON Schema is not', () => {
    expect(schemaShapeKeys(shape)).toEqual(['city', 'days']);
    expect(
      schemaShapeKeys({ type: 'object', properties: { city: { type: 'string' } } }),
    ).toBeUndefined();
    expect(schemaShapeKeys(z.object(shape))).toBeUndefined();
  });

  it('as an inputSchema is refused where the tool is defined, naming the fix', () => {
    const define = () => tool({ name: 'forecast', inputSchema: shape, execute: () => 'sunny' });
    expect(define).toThrow(ToolDefinitionError);
    expect(define).toThrow(
      "The inputSchema of tool 'forecast' is an object of schemas (city, days), not a schema: wrap it in z.object({ … })",
    );
  });

  it('as an outputSchema is refused the same way', () => {
    expect(() =>
      tool({ name: 'forecast', outputSchema: shape, execute: () => ({ city: 'Oslo' }) }),
    ).toThrow(/outputSchema of tool 'forecast' is an object of schemas \(city, days\)/);
  });

  it('as the schema of entity() is refused before the model is called', async () => {
    const model = new ScriptedChatModel([textResponse('{"city":"Oslo"}')]);
    const answer = ChatClient.create(model).prompt('Weather?').call().entity(shape);
    await expect(answer).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(answer).rejects.toThrow(/entity\(\) is an object of schemas \(city, days\)/);
    expect(model.callCount).toBe(0);
  });
});
