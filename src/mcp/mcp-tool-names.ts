import { createHash } from 'node:crypto';

/** Longest tool name every provider accepts. */
export const MAX_TOOL_NAME_LENGTH = 64;
const NOT_ALLOWED = /[^a-zA-Z0-9_-]/g;

/**
 * Makes a name every provider accepts (`^[a-zA-Z0-9_-]{1,64}$`): each other character becomes
 * `_`, an empty name becomes `tool`, and a longer name keeps its first 55 characters plus `_` and
 * 8 hex digits of its hash, so that two long names stay apart. A valid name is returned as is.
 */
export function sanitizeToolName(name: string): string {
  const replaced = name.replace(NOT_ALLOWED, '_');
  if (replaced.length === 0) return 'tool';
  if (replaced.length <= MAX_TOOL_NAME_LENGTH) return replaced;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${replaced.slice(0, MAX_TOOL_NAME_LENGTH - 9)}_${hash}`;
}

/** `<server>_<tool>`, sanitised (the opt-in server prefix). */
export function serverPrefixedToolName(serverName: string, toolName: string): string {
  return sanitizeToolName(`${serverName.replace(NOT_ALLOWED, '_')}_${toolName}`);
}

/**
 * The first free name among `alt_1_<name>`, `alt_2_<name>`, … (Spring AI's
 * `DefaultMcpToolNamePrefixGenerator` prefix for the second and later tools of one name).
 */
export function alternativeToolName(name: string, taken: ReadonlySet<string>): string {
  for (let counter = 1; ; counter++) {
    const candidate = sanitizeToolName(`alt_${counter}_${name}`);
    if (!taken.has(candidate)) return candidate;
  }
}
