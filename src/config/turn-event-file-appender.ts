import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TurnEventListener } from '../observability/index.js';
import { TurnEventRecorder } from '../trace/index.js';

/** A listener that appends turns to a file, and the promise of the writes still pending. */
export interface TurnEventFileAppender {
  readonly listener: TurnEventListener;
  /** Writes what is still buffered (turns that never ended) and waits for every write; rethrows the first write error. */
  close(): Promise<void>;
}

/**
 * Records each turn with a {@link TurnEventRecorder} and, when the turn ends (`turn-finish` or
 * `turn-error`), appends its events to `file` as JSON Lines, the format `toolloop trace` reads.
 * One write per turn, in the order turns end, so concurrent turns never interleave in the file;
 * a file that exists is appended to, so one file holds a whole chat across runs. Content (tool
 * arguments and results, texts) is kept only with `recordContent`.
 */
export function turnEventFileAppender(
  file: string,
  options: { recordContent: boolean },
): TurnEventFileAppender {
  const turns = new Map<string, TurnEventRecorder>();
  let failure: unknown;
  let writes: Promise<void> = mkdir(dirname(file), { recursive: true }).then(
    () => undefined,
    (error: unknown) => {
      failure ??= error;
    },
  );
  const write = (recorder: TurnEventRecorder): void => {
    const lines = recorder.events.map((event) => `${JSON.stringify(event)}\n`).join('');
    if (lines === '') return;
    writes = writes
      .then(() => appendFile(file, lines))
      .catch((error: unknown) => {
        failure ??= error;
      });
  };
  const listener: TurnEventListener = (event) => {
    let recorder = turns.get(event.turnId);
    if (recorder === undefined) {
      recorder = new TurnEventRecorder({ recordContent: options.recordContent });
      turns.set(event.turnId, recorder);
    }
    recorder.listener(event);
    if (event.type === 'turn-finish' || event.type === 'turn-error') {
      turns.delete(event.turnId);
      write(recorder);
    }
  };
  return {
    listener,
    async close() {
      for (const recorder of turns.values()) write(recorder);
      turns.clear();
      await writes;
      if (failure !== undefined) throw failure;
    },
  };
}
