import { InvalidArgumentError } from '../errors/index.js';
import type { ToolCallback, ToolCallbackResolver } from './tool-callback.js';

/** Asks its resolvers in order and returns the first callback found, or `undefined`. */
export class DelegatingToolCallbackResolver implements ToolCallbackResolver {
  readonly #resolvers: readonly ToolCallbackResolver[];

  constructor(resolvers: readonly ToolCallbackResolver[] = []) {
    if (!Array.isArray(resolvers) || resolvers.some((resolver) => resolver == null)) {
      throw new InvalidArgumentError(
        'toolCallbackResolvers cannot be null or contain null elements',
      );
    }
    this.#resolvers = [...resolvers];
  }

  /** The first non-`undefined` answer of the delegates. */
  resolve(toolName: string): ToolCallback | undefined {
    for (const resolver of this.#resolvers) {
      const callback = resolver.resolve(toolName);
      if (callback !== undefined && callback !== null) return callback;
    }
    return undefined;
  }
}
