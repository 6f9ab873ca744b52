import { InvalidArgumentError } from '../errors/index.js';
import type { ToolCallback, ToolCallbackProvider } from './tool-callback.js';

/** A {@link ToolCallbackProvider} that always lists the same callbacks (copied when created). */
export function staticToolCallbackProvider(
  callbacks: readonly ToolCallback[],
): ToolCallbackProvider {
  if (!Array.isArray(callbacks)) throw new InvalidArgumentError('ToolCallbacks must not be null');
  if (callbacks.some((callback) => callback === null || callback === undefined)) {
    throw new InvalidArgumentError('toolCallbacks cannot contain null elements');
  }
  const fixed = [...callbacks];
  return {
    getToolCallbacks: () => [...fixed],
  };
}
