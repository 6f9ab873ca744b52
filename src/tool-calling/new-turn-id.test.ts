import { describe, expect, it } from 'vitest';
import { newTurnId } from './new-turn-id.js';

describe('newTurnId', () => {
  it('gives every turn of the process its own id, behind one random per-process prefix', () => {
    const ids = Array.from({ length: 1000 }, () => newTurnId());
    expect(new Set(ids).size).toBe(ids.length);
    const prefixes = new Set(ids.map((id) => id.slice(0, id.lastIndexOf('-'))));
    expect(prefixes.size).toBe(1);
    expect([...prefixes][0]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
