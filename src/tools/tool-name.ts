import { ToolDefinitionError } from '../errors/index.js';

// Upper case or any non-ASCII character starts a word, as in the reference's camelCase split.
const CAMEL_CASE_BOUNDARY =
  /(?<!(?:^|[\p{Lu}\P{ASCII}_$]))(?=[\p{Lu}\P{ASCII}])|(?<!^)(?=[\p{Lu}\P{ASCII}]\p{Ll})/u;
const PORTABLE_TOOL_NAME = /^[a-zA-Z0-9_.-]+$/;

/**
 * Splits a camelCase name into lower-case words joined by spaces, the default description of a
 * tool without one: `getCurrentWeather` → `"get current weather"`, `getHTTPResponse` →
 * `"get http response"`.
 */
export function splitCamelCase(name: string): string {
  return name
    .split(CAMEL_CASE_BOUNDARY)
    .map((word) => word.toLowerCase())
    .join(' ');
}

/**
 * True when every provider accepts the name as is (`^[a-zA-Z0-9_.-]+$`). Other names are allowed,
 * as in the reference, but some providers reject them.
 */
export function isPortableToolName(name: string): boolean {
  return PORTABLE_TOOL_NAME.test(name);
}

/** Checks a tool name: a non-empty string that is not only whitespace. Returns it unchanged. */
export function assertToolName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new ToolDefinitionError('Tool name cannot be null or empty');
  }
  return name;
}
