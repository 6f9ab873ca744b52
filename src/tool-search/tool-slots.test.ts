import { describe, expect, it } from 'vitest';
import { ToolSlots } from './tool-slots.js';

const ref = (toolName: string) => ({ toolName, summary: toolName });

describe('ToolSlots', () => {
  it('reuses freed slots, so the capacity stays at the most tools held at once', () => {
    const slots = new ToolSlots();
    const names = ['a', 'b', 'c'];
    for (const name of names) slots.add(ref(name));
    for (let round = 0; round < 50; round++) {
      for (const name of names) {
        slots.remove(slots.slotOf(name) as number);
        slots.add(ref(name));
      }
    }
    expect(slots.size).toBe(3);
    expect(slots.capacity).toBe(3);
    expect([...slots.references()].map((reference) => reference.toolName).sort()).toEqual(names);
  });

  it('orders tools by when they were last added, whatever slot they got', () => {
    const slots = new ToolSlots();
    const a = slots.add(ref('a'));
    const b = slots.add(ref('b'));
    slots.remove(a);
    const c = slots.add(ref('c'));
    expect(c).toBe(a);
    expect(slots.order(b)).toBeLessThan(slots.order(c));
    expect(slots.reference(c)?.toolName).toBe('c');
    expect(slots.slotOf('a')).toBeUndefined();
    slots.remove(a);
    slots.remove(a);
    expect(slots.size).toBe(1);
    expect(slots.reference(a)).toBeUndefined();
    // Removing twice freed the slot once: the next two tools get different slots.
    expect(slots.add(ref('d'))).not.toBe(slots.add(ref('e')));
  });
});
