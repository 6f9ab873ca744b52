import { words } from '../internal/search-text/words.js';

/**
 * A capitalised name after a word that says where the answer should come from: "based on
 * Wikipedia", "prices from Amazon", "search via DuckDuckGo", "referencing Wikipedia", "using
 * Playwright". Lower-case cues only, so a sentence's first word ("From now on …") is no cue; one
 * name word, optionally after "the". Linear time: one bounded alternation, one character class.
 */
const NAMED_SOURCE =
  /\b(?:on|from|via|using|use|referencing|through)\s{1,3}(?:the\s{1,3})?([A-Z][\w-]*)/g;

/**
 * The words of the services a request names as the source of its answer ("an overview of CNNs,
 * referencing Wikipedia" → `wikipedia`). Such a name is the one thing a request says about which
 * service to call, while its other words describe the task, so a tool named after it deserves
 * more than one word's weight among many.
 */
export function sourceWords(text: string): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(NAMED_SOURCE)) {
    for (const word of words((match[1] as string).toLowerCase())) found.add(word);
  }
  return found;
}

/**
 * The weight of a source word in the query when a tool's name contains it (a word of the request
 * itself weighs 1). Chosen on the tuning halves: 1.5, 2 and 3 found as many gold tools, 2 and 3
 * lost one held-out request of another set.
 */
export const SOURCE_WORD_WEIGHT = 1.5;
