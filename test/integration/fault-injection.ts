/** How an injected fault behaves: a thrown/rejected error, or a call that never settles. */
export type FaultMode = 'error' | 'hang';

/**
 * Counts the calls of the named methods on a real driver object (and on the objects it hands out,
 * such as pooled connections and prepared statements) and fails the `failAt`-th one once armed.
 * The failing call never reaches the driver.
 */
export class FaultInjector {
  count = 0;
  failAt = 0;
  mode: FaultMode = 'error';
  fired = false;
  private readonly methods: ReadonlySet<string>;

  constructor(methods: readonly string[]) {
    this.methods = new Set(methods);
  }

  /** Starts counting from zero; the `failAt`-th counted call fails. */
  arm(failAt: number, mode: FaultMode): void {
    this.count = 0;
    this.failAt = failAt;
    this.mode = mode;
    this.fired = false;
  }

  /** Stops injecting. */
  disarm(): void {
    this.failAt = 0;
  }

  /** Wraps a driver object. */
  wrap<T extends object>(target: T): T {
    const injector = this;
    return new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver);
        if (typeof value !== 'function') return value;
        const counted = typeof property === 'string' && injector.methods.has(property);
        return function wrapped(this: unknown, ...args: unknown[]) {
          if (counted && injector.failAt > 0) {
            injector.count++;
            if (injector.count === injector.failAt) {
              injector.fired = true;
              if (injector.mode === 'hang') return new Promise(() => {});
              throw new Error(`injected fault in ${String(property)}`);
            }
          }
          const result = Reflect.apply(value, object, args);
          return injector.wrapResult(result);
        };
      },
    });
  }

  private wrapResult(result: unknown): unknown {
    if (result instanceof Promise) return result.then((value) => this.wrapResult(value));
    if (
      typeof result === 'object' &&
      result !== null &&
      !Array.isArray(result) &&
      Object.getPrototypeOf(result) !== Object.prototype &&
      !Buffer.isBuffer(result)
    ) {
      return this.wrap(result);
    }
    return result;
  }
}
