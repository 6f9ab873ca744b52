import { tool } from '../../index.js';

/**
 * `@mcpTool` is `@tool` under the name Spring AI users know (`@McpTool`): the same options and
 * checks, and the method is served by `McpToolServer` like any tool (and usable in-process).
 * Behaviour hints become MCP annotations:
 *
 * ```ts
 * class WeatherTools {
 *   @mcpTool({ description: 'Get the current weather for a given city', readOnly: true,
 *     inputSchema: z.object({ city: z.string().describe('City name') }) })
 *   getWeather({ city }: { city: string }) { … }
 * }
 * ```
 *
 * With an `execute` function it defines a function tool, like `tool()`.
 */
export const mcpTool: typeof tool = tool;
