import { InvalidArgumentError } from '../errors/index.js';
import type { ToolCallback, ToolCallbackResolver } from './tool-callback.js';

/** Resolves tools by name from a fixed list; when two share a name, the later one wins. */
export class StaticToolCallbackResolver implements ToolCallbackResolver {
  readonly #byName = new Map<string, ToolCallback>();

  constructor(callbacks: readonly ToolCallback[]) {
    if (!Array.isArray(callbacks)) throw new InvalidArgumentError('toolCallbacks cannot be null');
    for (const callback of callbacks) {
      if (callback === null || callback === undefined) {
        throw new InvalidArgumentError('toolCallbacks cannot contain null elements');
      }
      this.#byName.set(callback.definition.name, callback);
    }
  }

  /** The callback named `toolName`, or `undefined`. Throws for an empty name. */
  resolve(toolName: string): ToolCallback | undefined {
    if (typeof toolName !== 'string' || toolName.trim() === '') {
      throw new InvalidArgumentError('toolName cannot be null or empty');
    }
    return this.#byName.get(toolName);
  }
}
