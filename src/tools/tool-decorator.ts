import { InvalidArgumentError, ToolDefinitionError } from '../errors/index.js';
import { assertUniqueToolNames } from './assert-unique-tool-names.js';
import { createToolCallback } from './create-tool-callback.js';
import type { InferToolInput, ToolInputSchema } from './schema/tool-input-schema.js';
import type { ToolCallback, ToolContext, ToolContextMap } from './tool-callback.js';
import { type PreparedTool, prepareTool, type ToolMethodOptions } from './tool-options.js';

/**
 * The TC39 method decorator `@tool(options)` returns. The method is called as
 * `method.call(instance, input, context)` with the validated input and the caller's context.
 */
export type ToolMethodDecorator<Schema extends ToolInputSchema | undefined> = <
  This,
  Ctx extends object = ToolContextMap,
>(
  method: (this: This, input: InferToolInput<Schema>, context: ToolContext<Ctx>) => unknown,
  context: ClassMethodDecoratorContext<This>,
) => void;

// Keyed by the method function itself: `Symbol.metadata` does not exist on Node 20.
const toolMethods = new WeakMap<object, PreparedTool>();
const TOOL_DECORATOR = Symbol('toolloop.toolDecorator');

/**
 * Creates the `@tool` decorator for a class method (TC39 decorators; no `experimentalDecorators`).
 * The name defaults to the method name and the description to the method name's words
 * (`getWeather` → "get weather"), also when an explicit name is given. TC39 decorators cannot see
 * parameter types, so a method without `inputSchema` takes no arguments and must declare no
 * parameters; a method that needs only the context declares `inputSchema: z.object({})` (or
 * `{ type: 'object', properties: {} }`) and takes `(input, context)`. Everything is checked when
 * the class is defined; an ECMAScript `#private` method is refused with a `ToolDefinitionError`,
 * since nothing outside the class can reach it. Write `@tool` above any other decorator that
 * replaces the method, so that the registered function is the final one.
 */
export function toolMethodDecorator<Schema extends ToolInputSchema | undefined = undefined>(
  options: ToolMethodOptions<Schema> = {},
): ToolMethodDecorator<Schema> {
  if (typeof options !== 'object' || options === null) {
    throw new ToolDefinitionError('@tool takes an options object, e.g. @tool({ description })');
  }
  const decorator = function toolDecorator(method: unknown, context: unknown): void {
    const decoratorContext = context as Partial<ClassMethodDecoratorContext> | undefined;
    if (typeof method !== 'function' || decoratorContext?.kind !== 'method') {
      throw new ToolDefinitionError(
        '@tool decorates class methods only (TC39 decorators; turn experimentalDecorators off)',
      );
    }
    const methodName =
      typeof decoratorContext.name === 'string' ? decoratorContext.name : undefined;
    if (decoratorContext.private === true) {
      // Registration finds tools among an object's own and inherited properties, where a
      // #private method never is: without this check the decorator would be silently ignored.
      throw new ToolDefinitionError(
        `@tool cannot register the private method '${String(decoratorContext.name)}': a #private method cannot be reached from outside its class. Make it a public method (a TypeScript 'private' modifier works).`,
      );
    }
    if (options.name === undefined && methodName === undefined) {
      throw new ToolDefinitionError('@tool on a method named by a symbol needs an explicit name');
    }
    const displayName = options.name ?? methodName;
    if (toolMethods.has(method)) {
      throw new ToolDefinitionError(
        `Method '${displayName}' is decorated with @tool more than once`,
      );
    }
    if (options.inputSchema === undefined && method.length > 0) {
      throw new ToolDefinitionError(
        `Method '${displayName}' declares parameters, so @tool needs an inputSchema (decorators cannot ` +
          'see parameter types). A method that needs only the ToolContext declares inputSchema: ' +
          "z.object({}) or { type: 'object', properties: {} } and takes (input, context).",
        { toolName: displayName },
      );
    }
    const defaults = methodName === undefined ? {} : { name: methodName, describeAs: methodName };
    toolMethods.set(method, prepareTool(options, defaults));
  };
  Object.defineProperty(decorator, TOOL_DECORATOR, { value: true });
  return decorator as ToolMethodDecorator<Schema>;
}

/** True for the decorator that `tool(options)` returns when `options` has no `execute`. */
export function isToolMethodDecorator(value: unknown): boolean {
  return (
    typeof value === 'function' &&
    (value as unknown as Record<symbol, unknown>)[TOOL_DECORATOR] === true
  );
}

/** True when `value` (an instance, or a class with static `@tool` methods) has `@tool` methods. */
export function hasToolMethods(value: unknown): boolean {
  return findToolMethods(value).length > 0;
}

/**
 * Turns objects with `@tool` methods into {@link ToolCallback}s bound to them, the methods of each
 * object in prototype-chain order (an override without `@tool` hides the decorated method).
 * Throws {@link ToolDefinitionError} when an object has no `@tool` method or two tools share a name.
 */
export function toolCallbacksFrom(...sources: readonly object[]): ToolCallback[] {
  const callbacks: ToolCallback[] = [];
  for (const source of sources) {
    if ((typeof source !== 'object' && typeof source !== 'function') || source === null) {
      throw new InvalidArgumentError(
        `toolCallbacksFrom() takes objects with @tool methods, not ${source === null ? 'null' : typeof source}`,
      );
    }
    const methods = findToolMethods(source);
    if (methods.length === 0) {
      if (isClassWithInstanceTools(source)) {
        const name = describeSource(source);
        throw new ToolDefinitionError(
          `${name} is a class, and its @tool methods belong to its instances: pass an instance: new ${name}()`,
        );
      }
      const hint = isToolMethodDecorator(source)
        ? ' This is the decorator tool(options) returns when options has no execute function.'
        : '';
      throw new ToolDefinitionError(
        `No @tool annotated methods found in ${describeSource(source)}. Did you mean to pass a ToolCallback or ToolCallbackProvider?${hint}`,
      );
    }
    for (const { method, prepared } of methods) {
      callbacks.push(
        createToolCallback(prepared, (input, context) => method.call(source, input, context)),
      );
    }
  }
  assertUniqueToolNames(callbacks, `sources: ${sources.map(describeSource).join(', ')}`);
  return callbacks;
}

function findToolMethods(
  value: unknown,
): { method: (...args: unknown[]) => unknown; prepared: PreparedTool }[] {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return [];
  const found: { method: (...args: unknown[]) => unknown; prepared: PreparedTool }[] = [];
  const seenKeys = new Set<PropertyKey>();
  for (
    let holder: object | null = value;
    holder !== null && holder !== Object.prototype && holder !== Function.prototype;
    holder = Object.getPrototypeOf(holder)
  ) {
    for (const key of Reflect.ownKeys(holder)) {
      if (seenKeys.has(key)) continue;
      seenKeys.add(key);
      const candidate = Object.getOwnPropertyDescriptor(holder, key)?.value;
      if (typeof candidate !== 'function') continue;
      const prepared = toolMethods.get(candidate);
      if (prepared !== undefined) found.push({ method: candidate, prepared });
    }
  }
  return found;
}

/** True for a class (a function with a prototype) whose instances would have `@tool` methods. */
function isClassWithInstanceTools(source: unknown): boolean {
  if (typeof source !== 'function') return false;
  const prototype: unknown = (source as { prototype?: unknown }).prototype;
  return findToolMethods(prototype).length > 0;
}

function describeSource(source: unknown): string {
  if (typeof source === 'function') return source.name === '' ? 'an anonymous class' : source.name;
  const constructorName = (source as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof constructorName === 'string' && constructorName !== '' ? constructorName : 'Object';
}
