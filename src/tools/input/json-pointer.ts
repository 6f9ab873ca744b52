/** Escapes one reference token for a JSON pointer (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function escapeJsonPointerToken(token: string | number): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Builds a JSON pointer from path segments; no segments is `''`, the whole document. */
export function jsonPointer(segments: readonly (string | number)[]): string {
  let pointer = '';
  for (const segment of segments) pointer += `/${escapeJsonPointerToken(segment)}`;
  return pointer;
}
