import type { ToolContext, ToolContextMap } from './tool-callback.js';

/** Who creates a deferred tool signal: the tool-call batch sharing one among its calls. */
export interface DeferredSignalOwner {
  /** The signal, created now if need be (already aborted when the owner has aborted). */
  signal(): AbortSignal;
  /** The signal if it exists or the owner has aborted; `undefined` while neither (not aborted). */
  peekSignal(): AbortSignal | undefined;
}

/**
 * A tool context whose `signal` is created by its owner when first read. Creating an
 * `AbortSignal` costs Node 20 several microseconds and makes garbage collection markedly slower,
 * while most tools never read their signal. `signal` is an own, enumerable accessor, so spreading
 * or comparing the context sees the signal as usual; writing it makes it a plain data property.
 * The owner sits in a private field: invisible to spreading, `Object.keys` and deep equality.
 */
export class DeferredSignalToolContext implements ToolContext {
  readonly context: Readonly<ToolContextMap>;
  readonly toolCallId: string;
  readonly rawArguments: string;
  readonly messages: ToolContext['messages'];
  declare readonly signal?: AbortSignal;
  /** `undefined` once `signal` was written. */
  #owner: DeferredSignalOwner | undefined;

  // One descriptor for every instance: the same getter and setter keep every context on one
  // hidden class (and adding an accessor costs less than twice `defineProperty` with a symbol).
  static readonly #signalProperty: PropertyDescriptor = {
    get(this: DeferredSignalToolContext): AbortSignal | undefined {
      return this.#owner?.signal();
    },
    set(this: DeferredSignalToolContext, value: unknown): void {
      this.#owner = undefined;
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

  constructor(
    context: Readonly<ToolContextMap>,
    toolCallId: string,
    rawArguments: string,
    messages: ToolContext['messages'],
    owner: DeferredSignalOwner,
  ) {
    this.context = context;
    this.toolCallId = toolCallId;
    this.rawArguments = rawArguments;
    this.messages = messages;
    this.#owner = owner;
    Object.defineProperty(this, 'signal', DeferredSignalToolContext.#signalProperty);
  }

  /** The owner of a context whose signal is still deferred, else `undefined`. */
  static ownerOf(context: object): DeferredSignalOwner | undefined {
    return #owner in context ? (context as DeferredSignalToolContext).#owner : undefined;
  }
}

/**
 * The signal of a tool context as far as it matters now: `context.signal`, except that a deferred
 * signal nobody has read and nothing has aborted yet is `undefined` (it is not aborted).
 */
export function peekToolSignal(context: ToolContext | undefined): AbortSignal | undefined {
  if (context === undefined) return undefined;
  const owner = DeferredSignalToolContext.ownerOf(context);
  return owner === undefined ? context.signal : owner.peekSignal();
}
