import { InvalidArgumentError } from '../errors/index.js';
import type { ToolCallback } from './tool-callback.js';

/**
 * Checks, at a public entry point, that a fixed list of tools is an array without null elements,
 * with Spring AI's texts (`ToolCallbacks must not be null`, `toolCallbacks cannot contain null
 * elements`), so a bad list fails where it is given rather than inside a later request.
 */
export function assertToolCallbackList(
  callbacks: unknown,
): asserts callbacks is readonly ToolCallback[] {
  if (!Array.isArray(callbacks)) throw new InvalidArgumentError('ToolCallbacks must not be null');
  for (const callback of callbacks) {
    if (callback === null || callback === undefined) {
      throw new InvalidArgumentError('toolCallbacks cannot contain null elements');
    }
  }
}
