/** Default `maxResultBytes` of the tool-calling manager: 1 MiB of UTF-8 per tool result. */
export const DEFAULT_MAX_TOOL_RESULT_BYTES = 1024 * 1024;

/** Smallest accepted cap: the truncation notice itself must fit. */
export const MIN_MAX_TOOL_RESULT_BYTES = 256;

/**
 * `text` when its UTF-8 encoding fits in `maxBytes`; otherwise its longest prefix that fits
 * together with a notice telling the model what was cut, never splitting a character:
 * `…\n[toolloop: result truncated: the tool returned N bytes; the first M are shown]`.
 * `maxBytes` is at least {@link MIN_MAX_TOOL_RESULT_BYTES} or `Infinity`.
 */
export function capToolResultText(text: string, maxBytes: number): string {
  // A UTF-8 encoding is at most three bytes per UTF-16 unit: short text needs no count.
  if (text.length * 3 <= maxBytes) return text;
  const total = Buffer.byteLength(text, 'utf8');
  if (total <= maxBytes) return text;
  // The notice's length depends on the kept byte count, which is at most `maxBytes`.
  const budget = maxBytes - Buffer.byteLength(notice(total, maxBytes), 'utf8');
  const { end, bytes } = prefixWithin(text, budget);
  return `${text.slice(0, end)}${notice(total, bytes)}`;
}

function notice(total: number, kept: number): string {
  return `\n[toolloop: result truncated: the tool returned ${total} bytes; the first ${kept} are shown]`;
}

/** The end index and UTF-8 size of the longest prefix of whole characters within `budget` bytes. */
function prefixWithin(text: string, budget: number): { end: number; bytes: number } {
  let bytes = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    let size: number;
    let units = 1;
    if (code < 0x80) size = 1;
    else if (code < 0x800) size = 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      size = 4;
      units = 2;
    } else size = 3; // the rest of the BMP, and a lone surrogate (encoded as U+FFFD)
    if (bytes + size > budget) break;
    bytes += size;
    index += units;
  }
  return { end: index, bytes };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
