import type { ToolReference } from './tool-reference.js';

/**
 * The tools of one index session, each in a slot: a small integer that indexes the session's
 * score arrays. The slot of a removed tool is given to the next tool added, so the arrays stay as
 * long as the most tools the session held at once however often tools are replaced. Each tool
 * also keeps the order it was (last) indexed in, which breaks ties between equal scores.
 */
export class ToolSlots {
  readonly #slotByName = new Map<string, number>();
  readonly #references: (ToolReference | undefined)[] = [];
  readonly #orders: number[] = [];
  readonly #free: number[] = [];
  #nextOrder = 0;

  /** Tools held. */
  get size(): number {
    return this.#slotByName.size;
  }

  /** One more than the highest slot ever used: the length score arrays need. */
  get capacity(): number {
    return this.#references.length;
  }

  /** The slot of the tool of this name, if it is held. */
  slotOf(toolName: string): number | undefined {
    return this.#slotByName.get(toolName);
  }

  /** The tool in a slot; `undefined` for a free slot. */
  reference(slot: number): ToolReference | undefined {
    return this.#references[slot];
  }

  /** When the tool in a slot was indexed, relative to the others: lower is earlier. */
  order(slot: number): number {
    return this.#orders[slot] as number;
  }

  /** The tools held, in slot order. */
  *references(): IterableIterator<ToolReference> {
    for (const reference of this.#references) if (reference !== undefined) yield reference;
  }

  /** Puts a tool whose name is not held in a free slot (or a new one) and returns the slot. */
  add(reference: ToolReference): number {
    const slot = this.#free.pop() ?? this.#references.length;
    this.#slotByName.set(reference.toolName, slot);
    this.#references[slot] = reference;
    this.#orders[slot] = this.#nextOrder++;
    return slot;
  }

  /** Frees the slot of a held tool. */
  remove(slot: number): void {
    const reference = this.#references[slot];
    if (reference === undefined) return;
    this.#slotByName.delete(reference.toolName);
    this.#references[slot] = undefined;
    this.#free.push(slot);
  }
}
