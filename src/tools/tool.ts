import { ToolDefinitionError } from '../errors/index.js';
import { createToolCallback } from './create-tool-callback.js';
import type {
  ToolInputSchema,
  ToolInputSchemaBound,
  ToolInputSchemaDemand,
} from './schema/tool-input-schema.js';
import type { ToolCallback, ToolContextMap } from './tool-callback.js';
import { type ToolMethodDecorator, toolMethodDecorator } from './tool-decorator.js';
import { type FunctionToolOptions, prepareTool, type ToolMethodOptions } from './tool-options.js';

/**
 * Defines a tool. With an `execute` function it returns a {@link ToolCallback} (the function-tool
 * style); without one it returns the `@tool` decorator for a class method, which works under TC39
 * decorators and under `experimentalDecorators` alike (with TC39 decorators, compile with a
 * `target` of ES2022 to ES2024: no Node.js release parses the `@` syntax `target: "esnext"` leaves).
 *
 * ```ts
 * const currentWeather = tool({
 *   name: 'currentWeather',
 *   inputSchema: z.object({ city: z.string() }),
 *   // Annotating the context types its map: no casts.
 *   execute: async ({ city }, { context }: ToolContext<{ tenantId: string }>) =>
 *     weather.lookup(city, context.tenantId),
 * });
 * class WeatherTools {
 *   @tool({ description: 'Current weather', inputSchema: z.object({ city: z.string() }) })
 *   getWeather(input: { city: string }) { … }
 * }
 * ```
 *
 * The input is parsed and validated before `execute` (or the method) runs; the result goes
 * through `resultConverter` (default {@link defaultToolResultConverter}). Invalid options throw
 * a {@link ToolDefinitionError} right here.
 */
export function tool<
  Schema extends ToolInputSchemaBound | undefined = undefined,
  Result = unknown,
  Ctx extends object = ToolContextMap,
>(options: FunctionToolOptions<Schema, Result, Ctx> & ToolInputSchemaDemand<Schema>): ToolCallback;
/** The decorator form: options without `execute` give the `@tool` decorator for a class method. */
export function tool<Schema extends ToolInputSchemaBound | undefined = undefined>(
  options?: ToolMethodOptions<Schema> & ToolInputSchemaDemand<Schema>,
): ToolMethodDecorator<Schema>;
// The overloads type the options; here they are only passed on to checks made at run time (a
// schema the types refuse, such as a Zod 3 one, is refused there too).
export function tool(
  options?: object,
): ToolCallback | ToolMethodDecorator<ToolInputSchema | undefined> {
  if (typeof options === 'object' && options !== null && 'execute' in options) {
    return functionTool(options as FunctionToolOptions);
  }
  return toolMethodDecorator(options as ToolMethodOptions | undefined);
}

function functionTool(options: FunctionToolOptions): ToolCallback {
  const { execute } = options;
  if (typeof execute !== 'function') {
    const name = typeof options.name === 'string' ? ` '${options.name}'` : '';
    throw new ToolDefinitionError(`Tool${name}: execute must be a function`);
  }
  const prepared = prepareTool(options);
  return createToolCallback(prepared, (input, context) =>
    execute(input as Parameters<typeof execute>[0], context),
  );
}
