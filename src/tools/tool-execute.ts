import type { ToolCallback } from './tool-callback.js';

type Execute = NonNullable<ToolCallback['execute']>;
type Call = ToolCallback['call'];

/** The `call` each library-made `execute` belongs with. */
const pairs = new WeakMap<Execute, Call>();

/**
 * Records that `execute` and `call` are the two forms of one tool (as `tool()` makes them), so
 * {@link executeOf} can tell when someone replaced `call` alone.
 */
export function pairExecute(execute: Execute, call: Call): void {
  pairs.set(execute, call);
}

/**
 * The `execute` the manager should run for `callback`, or `undefined` to run its `call`. A
 * callback copied with `{ ...tool, call: wrapped }` (the 0.x way to wrap a tool: count, log,
 * guard its calls) keeps the library's `execute` beside a `call` it no longer belongs with: the
 * wrapped `call` then runs, as it did before `execute` existed. A hand-written `execute` is
 * always run.
 */
export function executeOf(callback: ToolCallback): Execute | undefined {
  const execute = callback.execute;
  if (typeof execute !== 'function') return undefined;
  const paired = pairs.get(execute);
  return paired === undefined || paired === callback.call ? execute : undefined;
}
