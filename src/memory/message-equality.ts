import type { Message } from '../messages/index.js';

/** Structural JSON equality (key order ignored; `undefined` properties count as absent). */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) {
    return false;
  }
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) {
    return (
      left.length === right.length && left.every((item, index) => jsonEqual(item, right[index]))
    );
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  const leftKeys = Object.keys(leftRecord).filter((key) => leftRecord[key] !== undefined);
  const rightKeys = Object.keys(rightRecord).filter((key) => rightRecord[key] !== undefined);
  if (leftKeys.length !== rightKeys.length) return false;
  return leftKeys.every(
    (key) => Object.hasOwn(rightRecord, key) && jsonEqual(leftRecord[key], rightRecord[key]),
  );
}

/** True when `run` occurs as a contiguous run at some offset of `messages` (an empty run always does). */
export function containsRun(messages: readonly Message[], run: readonly Message[]): boolean {
  if (run.length === 0) return true;
  for (let offset = 0; offset + run.length <= messages.length; offset++) {
    let matches = true;
    for (let index = 0; index < run.length; index++) {
      if (!jsonEqual(messages[offset + index], run[index])) {
        matches = false;
        break;
      }
    }
    if (matches) return true;
  }
  return false;
}
