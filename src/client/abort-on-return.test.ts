import { describe, expect, it } from 'vitest';
import { stopFlagOf } from '../internal/stream-stop-flags.js';
import { abortOnReturn } from './abort-on-return.js';

/** An endless source that records the signal of its run. */
function recordingRun(signals: AbortSignal[]) {
  return (signal: AbortSignal): AsyncIterable<number> => {
    signals.push(signal);
    return (async function* () {
      for (let index = 0; ; index++) yield index;
    })();
  };
}

describe('abortOnReturn', () => {
  it("gives a run without an outer signal a stop flag that its return() sets as it aborts the run's signal", async () => {
    const signals: AbortSignal[] = [];
    const iterator = abortOnReturn(undefined, recordingRun(signals))[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: 0 });
    const [signal] = signals;
    const flag = stopFlagOf(signal);
    expect(flag).toEqual({ stopped: false });
    expect(signal?.aborted).toBe(false);
    await iterator.return?.();
    expect(flag?.stopped).toBe(true);
    expect(signal?.aborted).toBe(true);
  });

  it('gives a run that follows an outer signal no stop flag: the outer signal can abort it at any time', async () => {
    const outer = new AbortController();
    const signals: AbortSignal[] = [];
    const iterator = abortOnReturn(outer.signal, recordingRun(signals))[Symbol.asyncIterator]();
    await iterator.next();
    const [signal] = signals;
    expect(stopFlagOf(signal)).toBeUndefined();
    outer.abort();
    expect(signal?.aborted).toBe(true);
    await iterator.return?.();
  });
});
