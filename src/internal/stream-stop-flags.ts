/** Set once the stream that owns the signal was stopped by its caller (its `return()`). */
export interface StreamStopFlag {
  stopped: boolean;
}

/**
 * Signals that only their stream's own `return()` aborts (the signal `abortOnReturn` makes for an
 * iteration that follows no outer signal: nothing else holds its controller), each with a flag
 * that `return()` sets just before it aborts the signal. The stream loop checks for an abort on
 * every chunk; for such a signal it reads the flag instead of `AbortSignal#aborted`. Why: that
 * getter costs ~30 ns per read on Node 20 (measured: 12% of the text round's time per chunk in
 * the bench/streaming.ts shape); an abort listener costs more (~5 µs to add and remove).
 */
const flags = new WeakMap<AbortSignal, StreamStopFlag>();

/** Registers `signal` as aborted only by its stream's `return()`; that `return()` sets the flag. */
export function stopFlagFor(signal: AbortSignal): StreamStopFlag {
  const flag: StreamStopFlag = { stopped: false };
  flags.set(signal, flag);
  return flag;
}

/** The flag of a signal registered with {@link stopFlagFor}; `undefined` for any other signal. */
export function stopFlagOf(signal: AbortSignal | undefined): StreamStopFlag | undefined {
  return signal === undefined ? undefined : flags.get(signal);
}
