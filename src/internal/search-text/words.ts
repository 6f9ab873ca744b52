const WORD = /[\p{L}\p{N}]+/gu;
const ASCII_WORD = /[A-Za-z0-9]+/g;
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const HAN = /\p{Script=Han}/u;
const HAN_RUN = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u;

/**
 * Splits an identifier into lower-case words: `getCurrentWeather`, `get_current_weather`,
 * `get-current-weather` and `weather.get.current` all give their words; `HTTPServer` gives
 * `http`, `server`.
 */
export function splitIdentifier(identifier: string): string[] {
  return words(identifier);
}

function asciiWords(text: string): string[] {
  const separated = text
    .replace(/([a-z0-9])(?=[A-Z])/g, '$1 ')
    .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 ');
  return (separated.match(ASCII_WORD) ?? []).map((word) => word.toLowerCase());
}

// Both patterns match one character plus a fixed lookahead, so they run in linear time on any input.
function separateCamelCase(text: string): string {
  return text
    .replace(/([\p{Ll}\p{N}])(?=\p{Lu})/gu, '$1 ')
    .replace(/(\p{Lu})(?=\p{Lu}\p{Ll})/gu, '$1 ');
}

/**
 * Lower-case words of free text; camelCase identifiers inside the text are split too. A run of
 * CJK characters (which has no spaces) becomes its overlapping character pairs, so Chinese
 * descriptions are still searchable.
 */
export function words(text: string): string[] {
  // Most tool texts are ASCII, where plain character classes give the same words much faster.
  if (ASCII_ONLY.test(text)) return asciiWords(text);
  const out: string[] = [];
  for (const match of separateCamelCase(text).matchAll(WORD)) {
    const word = match[0].toLowerCase();
    if (word.length > 2 && HAN_RUN.test(word)) {
      for (let i = 0; i + 1 < word.length; i++) out.push(word.slice(i, i + 2));
    } else {
      out.push(word);
    }
  }
  return out;
}

/** Whether a text contains Chinese characters (Han script, so Japanese kanji too). */
export function containsHan(text: string): boolean {
  return !ASCII_ONLY.test(text) && HAN.test(text);
}
