/**
 * The lower-case words of a text with identifiers split (`getCurrentWeather`, `get_weather`):
 * the form the word-vector table holds its words in. Words the table lacks (stop words, rare
 * words, other scripts) are skipped when embedding, so no stop-word list is needed here.
 */
export function vectorWords(text: string): string[] {
  const separated = text
    .replace(/([\p{Ll}\p{N}])(?=\p{Lu})/gu, '$1 ')
    .replace(/(\p{Lu})(?=\p{Lu}\p{Ll})/gu, '$1 ');
  return (separated.match(/[\p{L}\p{N}]+/gu) ?? []).map((word) => word.toLowerCase());
}
