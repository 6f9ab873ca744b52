import type { ToolContext } from './tool-callback.js';

/** Who creates a deferred tool signal: the tool-call batch sharing one among its calls. */
export interface DeferredSignalOwner {
  /** The signal, created now if need be (already aborted when the owner has aborted). */
  signal(): AbortSignal;
  /** The signal if it exists or the owner has aborted; `undefined` while neither (not aborted). */
  peekSignal(): AbortSignal | undefined;
}

const OWNER: unique symbol = Symbol('toolloop.deferredSignalOwner');

interface OwnedContext {
  [OWNER]?: DeferredSignalOwner;
}

// One shared accessor for every context: the same getter and setter keep every such context on
// one hidden class (an accessor written in an object literal would give each its own).
const SIGNAL_PROPERTY: PropertyDescriptor = {
  get(this: OwnedContext): AbortSignal | undefined {
    return this[OWNER]?.signal();
  },
  set(this: OwnedContext, value: unknown): void {
    // Writing the property makes it a plain data property, as it is on any other context.
    delete this[OWNER];
    Object.defineProperty(this, 'signal', {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  },
  enumerable: true,
  configurable: true,
};

/**
 * Gives `context` a `signal` property that creates the owner's signal when first read. Creating
 * an `AbortSignal` costs Node 20 several microseconds and makes garbage collection markedly
 * slower, while most tools never read their signal. The property is an own, enumerable one, so
 * spreading or comparing the context sees the signal as usual.
 */
export function deferToolSignal<T extends object>(context: T, owner: DeferredSignalOwner): T {
  Object.defineProperty(context, OWNER, { value: owner, configurable: true });
  Object.defineProperty(context, 'signal', SIGNAL_PROPERTY);
  return context;
}

/**
 * The signal of a tool context as far as it matters now: `context.signal`, except that a deferred
 * signal nobody has read and nothing has aborted yet is `undefined` (it is not aborted).
 */
export function peekToolSignal(context: ToolContext | undefined): AbortSignal | undefined {
  if (context === undefined) return undefined;
  const owner = (context as OwnedContext)[OWNER];
  return owner === undefined ? context.signal : owner.peekSignal();
}
