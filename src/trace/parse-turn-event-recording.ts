import { InvalidArgumentError } from '../errors/index.js';
import type { TurnEvent } from '../observability/turn-event.js';

const EVENT_TYPES = new Set<string>([
  'turn-start',
  'model-call-start',
  'model-call-end',
  'text-delta',
  'tool-call-delta',
  'tool-call',
  'tool-execution-start',
  'tool-progress',
  'tool-result',
  'limit-exceeded',
  'iteration-cap',
  'approval-pending',
  'step-finish',
  'turn-finish',
  'turn-error',
]);

/**
 * Reads recorded turn events from a file's text: a recording written by
 * `TurnEventRecorder.toJSON()` (`{ events: [...] }`), a JSON array of events, or JSON Lines (one
 * event per line). Throws an {@link InvalidArgumentError} naming the first bad entry.
 */
export function parseTurnEventRecording(text: string): TurnEvent[] {
  const trimmed = text.trim();
  if (trimmed === '') throw new InvalidArgumentError('The recording is empty: no turn events');
  const whole = tryParse(trimmed);
  let entries: unknown[];
  if (whole.ok) {
    const events = Array.isArray(whole.value)
      ? whole.value
      : (whole.value as { events?: unknown } | null)?.events;
    if (!Array.isArray(events))
      throw new InvalidArgumentError(
        'The recording is neither an array of events nor has an "events" array',
      );
    entries = events;
  } else if (!trimmed.includes('\n')) {
    throw new InvalidArgumentError(`The recording is not valid JSON: ${whole.message}`);
  } else {
    entries = trimmed.split(/\r?\n/).map((line, index) => {
      const parsed = tryParse(line);
      if (!parsed.ok)
        throw new InvalidArgumentError(`Line ${index + 1} of the recording is not valid JSON`);
      return parsed.value;
    });
  }
  return entries.map((entry, index) => checkEvent(entry, index));
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

function checkEvent(entry: unknown, index: number): TurnEvent {
  const where = `Event ${index + 1} of the recording`;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    throw new InvalidArgumentError(`${where} is not an object`);
  const { type, turnId, timestamp } = entry as Record<string, unknown>;
  if (typeof type !== 'string' || !EVENT_TYPES.has(type))
    throw new InvalidArgumentError(
      `${where} has an unknown type: ${JSON.stringify(String(type)).slice(0, 60)}`,
    );
  if (typeof turnId !== 'string') throw new InvalidArgumentError(`${where} has no turnId`);
  if (typeof timestamp !== 'number' || !Number.isFinite(timestamp))
    throw new InvalidArgumentError(`${where} has no numeric timestamp`);
  return entry as TurnEvent;
}
