import { InvalidArgumentError, ToolDefinitionError } from '../errors/index.js';
import { assertUniqueToolNames } from './assert-unique-tool-names.js';
import { createToolCallback } from './create-tool-callback.js';
import type { InferToolInput, ToolInputSchemaBound } from './schema/tool-input-schema.js';
import type { ToolCallback, ToolContext, ToolContextMap } from './tool-callback.js';
import { type PreparedTool, prepareTool, type ToolMethodOptions } from './tool-options.js';

/**
 * The method decorator `@tool(options)` returns. It works under both decorator flavours
 * TypeScript compiles: TC39 decorators (the default) and `experimentalDecorators` (NestJS,
 * TypeORM, Angular projects), so one class can be written the same way in either project. The
 * method is called as `method.call(instance, input, context)` with the validated input and the
 * caller's context; the input type is checked against the schema in both flavours.
 */
export interface ToolMethodDecorator<Schema extends ToolInputSchemaBound | undefined> {
  /** TC39 decorators: `(method, context)`. */
  <This, Ctx extends object = ToolContextMap>(
    method: (this: This, input: InferToolInput<Schema>, context: ToolContext<Ctx>) => unknown,
    context: ClassMethodDecoratorContext<This>,
  ): void;
  /** `experimentalDecorators`: `(prototype or class, method name, property descriptor)`. */
  <Ctx extends object = ToolContextMap>(
    target: object,
    propertyKey: string | symbol,
    descriptor: {
      value?: (input: InferToolInput<Schema>, context: ToolContext<Ctx>) => unknown;
    },
  ): void;
}

// Keyed by the method function itself: `Symbol.metadata` does not exist on Node 20.
const toolMethods = new WeakMap<object, PreparedTool>();
const TOOL_DECORATOR = Symbol('toolloop.toolDecorator');

/**
 * Creates the `@tool` decorator for a class method. The name defaults to the method name and the
 * description to the method name's words (`getWeather` → "get weather"), also when an explicit
 * name is given. Decorators cannot see parameter types, so a method without `inputSchema` takes no
 * arguments and must declare no parameters; a method that needs only the context declares
 * `inputSchema: z.object({})` (or `{ type: 'object', properties: {} }`) and takes
 * `(input, context)`. Everything is checked when the class is defined; an ECMAScript `#private`
 * method is refused with a `ToolDefinitionError`, since nothing outside the class can reach it.
 * Write `@tool` above any other decorator that replaces the method, so that the registered
 * function is the final one.
 *
 * Both TC39 decorators and TypeScript's `experimentalDecorators` work (told apart at run time by
 * how the decorator is called). Under TC39 decorators, compile with a `target` of ES2022 to
 * ES2024: with `target: "esnext"` (what `tsc --init` writes) TypeScript leaves the `@` syntax in
 * the output, and no Node.js release can parse it yet (Node 20 and 24 stop with
 * `SyntaxError: Invalid or unexpected token` at the `@`). `tool({ name, execute })` needs no
 * decorator at all.
 */
export function toolMethodDecorator<Schema extends ToolInputSchemaBound | undefined = undefined>(
  options: ToolMethodOptions<Schema> = {},
): ToolMethodDecorator<Schema> {
  if (typeof options !== 'object' || options === null) {
    throw new ToolDefinitionError('@tool takes an options object, e.g. @tool({ description })');
  }
  const register = (method: (...args: unknown[]) => unknown, key: string | symbol) => {
    const methodName = typeof key === 'string' ? key : undefined;
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
  const decorator = function toolDecorator(...args: unknown[]): void {
    const [first, second, third] = args;
    if (typeof second === 'string' || typeof second === 'symbol') {
      // experimentalDecorators: (target, key, descriptor); a property decorator gets no descriptor.
      const descriptor = third as PropertyDescriptor | undefined;
      if (typeof descriptor?.value !== 'function') {
        const what = descriptor?.get || descriptor?.set ? 'an accessor' : 'a property';
        throw new ToolDefinitionError(
          `@tool cannot decorate '${String(second)}', ${what}: it decorates class methods only`,
        );
      }
      register(descriptor.value as (...args: unknown[]) => unknown, second);
      return;
    }
    const context = second as Partial<ClassMethodDecoratorContext> | undefined;
    if (typeof first !== 'function' || context?.kind !== 'method') {
      const what =
        typeof context?.kind === 'string' ? ` '${String(context.name)}', a ${context.kind}` : '';
      throw new ToolDefinitionError(
        `@tool cannot decorate${what}: it decorates class methods only`,
      );
    }
    if (context.private === true) {
      // Registration finds tools among an object's own and inherited properties, where a
      // #private method never is: without this check the decorator would be silently ignored.
      throw new ToolDefinitionError(
        `@tool cannot register the private method '${String(context.name)}': a #private method cannot be reached from outside its class. Make it a public method (a TypeScript 'private' modifier works).`,
      );
    }
    register(first as (...args: unknown[]) => unknown, context.name as string | symbol);
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
        : isPlainFunction(source)
          ? ` A function is not a tool by itself: wrap it, tool({ name: '${source.name || 'myTool'}', description: '…', inputSchema: z.object({ … }), execute: ${source.name || 'yourFunction'} }).`
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

/** True for a function that is not a class (a function declaration, an arrow, a method). */
function isPlainFunction(source: unknown): source is (...args: unknown[]) => unknown {
  return (
    typeof source === 'function' && !Function.prototype.toString.call(source).startsWith('class')
  );
}

function describeSource(source: unknown): string {
  if (typeof source === 'function') {
    if (source.name !== '') return source.name;
    return isPlainFunction(source) ? 'an anonymous function' : 'an anonymous class';
  }
  const constructorName = (source as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof constructorName === 'string' && constructorName !== '' ? constructorName : 'Object';
}
