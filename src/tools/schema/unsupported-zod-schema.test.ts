import { describe, expect, it } from 'vitest';
import { z as zod4 } from 'zod';
import { z as zod3 } from 'zod3';
import { ChatClient } from '../../client/chat-client.js';
import { InvalidArgumentError, ToolDefinitionError } from '../../errors/index.js';
import { ScriptedChatModel } from '../../testing/index.js';
import { tool } from '../tool.js';
import { unsupportedZodSchemaReason } from './unsupported-zod-schema.js';

// `zod3` is the real Zod 3 package installed under an alias (npm:zod@3): its schemas are Standard
// Schemas without `~standard.jsonSchema`, which a JavaScript caller (or a cast) can still pass.
const Zod3City = zod3.object({ city: zod3.string() });
const Zod4City = zod4.object({ city: zod4.string() });

describe('a Zod 3 schema', () => {
  it('is recognised as Zod 3, while a Zod 4 schema is accepted', () => {
    expect(unsupportedZodSchemaReason(Zod3City)).toMatch(
      /^Zod 3 is not supported: install zod@\^4\.2/,
    );
    expect(unsupportedZodSchemaReason(Zod4City)).toBeUndefined();
    expect(unsupportedZodSchemaReason({ type: 'object', properties: {} })).toBeUndefined();
  });

  it('as a tool inputSchema throws a ToolDefinitionError naming the tool and the fix', () => {
    const define = () =>
      tool({
        name: 'weather',
        description: 'Current weather',
        inputSchema: Zod3City as never,
        execute: () => 'sunny',
      });
    expect(define).toThrow(ToolDefinitionError);
    expect(define).toThrow(
      "The inputSchema of tool 'weather': Zod 3 is not supported: install zod@^4.2",
    );
  });

  it('given to entity() is refused before the model is called', async () => {
    const model = new ScriptedChatModel();
    const response = ChatClient.create(model).prompt('Weather in Paris?').call();
    const entity = response.entity(Zod3City as never);
    await expect(entity).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(response.entity(Zod3City as never)).rejects.toThrow(
      'entity(): Zod 3 is not supported: install zod@^4.2',
    );
    expect(model.callCount).toBe(0);
  });

  it('a Zod 4 schema without ~standard.jsonSchema (4.0 / 4.1) is told to upgrade', () => {
    const { jsonSchema: _dropped, ...standard } = Zod4City['~standard'];
    const zod41Like = { _zod: Zod4City._zod, '~standard': standard };
    expect(unsupportedZodSchemaReason(zod41Like)).toMatch(
      /Zod 4\.0 and 4\.1 .* install zod@\^4\.2/,
    );
  });
});
