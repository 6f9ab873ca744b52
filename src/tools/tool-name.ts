import { ToolDefinitionError } from '../errors/index.js';

// Upper case or any non-ASCII character starts a word, as in Spring AI's camelCase split.
const CAMEL_CASE_BOUNDARY =
  /(?<!(?:^|[\p{Lu}\P{ASCII}_$]))(?=[\p{Lu}\P{ASCII}])|(?<!^)(?=[\p{Lu}\P{ASCII}]\p{Ll})/u;
// The rule of OpenAI's and Anthropic's APIs, the strictest common to the providers toolloop ships.
const PORTABLE_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_PORTABLE_NAME_LENGTH = 64;

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
 * True when OpenAI and Anthropic accept the name as is: `^[a-zA-Z0-9_-]{1,64}$` (ASCII letters,
 * digits, `_` and `-`, at most 64 characters).
 */
export function isPortableToolName(name: string): boolean {
  return PORTABLE_TOOL_NAME.test(name);
}

/**
 * Checks that OpenAI and Anthropic will accept a tool name (`^[a-zA-Z0-9_-]{1,64}$`); otherwise
 * throws a {@link ToolDefinitionError} stating the rule, the offending characters (or the length)
 * and the escape hatch `allowNonPortableName: true` for providers that accept more. Returns the
 * name unchanged.
 */
export function assertPortableToolName(name: string): string {
  if (isPortableToolName(name)) return name;
  const offending = [...new Set(name.replace(/[a-zA-Z0-9_-]/g, ''))];
  const problem =
    offending.length > 0
      ? `it contains ${offending.map((character) => JSON.stringify(character)).join(', ')}`
      : `it is ${name.length} characters long (at most ${MAX_PORTABLE_NAME_LENGTH})`;
  throw new ToolDefinitionError(
    `Tool name '${name}' would be rejected by OpenAI and Anthropic, which accept only ^[a-zA-Z0-9_-]{1,64}$: ${problem}. Rename the tool (e.g. '${suggestPortableName(name)}'), or pass allowNonPortableName: true if your provider accepts it (Gemini also accepts '.' and ':'; Ollama and most local OpenAI-compatible servers accept any name).`,
    { toolName: name },
  );
}

function suggestPortableName(name: string): string {
  const replaced = name.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return (replaced === '' ? 'tool' : replaced).slice(0, MAX_PORTABLE_NAME_LENGTH);
}

/** Checks a tool name: a non-empty string that is not only whitespace. Returns it unchanged. */
export function assertToolName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new ToolDefinitionError('Tool name cannot be null or empty');
  }
  return name;
}
