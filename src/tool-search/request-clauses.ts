/**
 * Words after which a bare "and" does not start a request of its own: it joins two things of one
 * request ("the balance and the history", "of 3 and 5", "in Paris and in London"). English function words
 * only: grammar, not the vocabulary of any tool set.
 */
const JOINING_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the this that these those my your his her its our their some any all each every no ' +
    'of in on at for to from with by about into over under between or and nor but so as than ' +
    'per via'
  ).split(' '),
);

/** Sentence ends, semicolons and line breaks. */
const SENTENCE_BREAK = /(?<=[.!?;])\s+|\n+/;

/** Conjunctions that always start a further request: "and then", "as well as", ", and". */
const SEQUENCE_BREAK =
  /,?\s+(?:and then|and also|and afterwards|as well as|then|also)\s+|,\s*and\s+/i;

const WORD = /[\p{L}\p{N}]+/gu;

/** The most clauses a request is split into; a longer request keeps its rest in the last one. */
export const MAX_REQUEST_CLAUSES = 8;

function wordCount(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

/**
 * The clauses of a request that asks for several things at once: "find the area of a circle and
 * then get the stock price of AAPL" gives its two needs, so a search can match a tool to each
 * instead of one sentence vector drifting to one of them. Splits at sentence ends, semicolons and
 * line breaks; at "then", "also", "and then", "as well as" and ", and"; and at a bare "and" between
 * two clauses of at least three words each whose right side does not open with a function word or
 * a number ("look up INC-7 and declare it a major incident" splits; "the health score and the
 * usage", "multiples of 3 and 5" and the list "temperature, rain and wind" do not). Fragments of fewer than two words are dropped.
 *
 * @returns the clauses, or an empty array when the request has fewer than two.
 */
export function requestClauses(request: string): string[] {
  const clauses: string[] = [];
  for (const sentence of request.split(SENTENCE_BREAK)) {
    for (const part of sentence.split(SEQUENCE_BREAK)) {
      const pieces = part.split(/\s+and\s+/i);
      let current = pieces[0] ?? '';
      for (const next of pieces.slice(1)) {
        const first = next.match(WORD)?.[0]?.toLowerCase() ?? '';
        const joins = JOINING_WORDS.has(first) || /^\p{N}/u.test(first);
        // In a list ("temperature, rain and wind") the left side is its last comma-separated item.
        const left = current.slice(current.lastIndexOf(',') + 1);
        if (!joins && wordCount(left) >= 3 && wordCount(next) >= 3) {
          clauses.push(current);
          current = next;
        } else {
          current = `${current} and ${next}`;
        }
      }
      clauses.push(current);
    }
  }
  const kept = clauses.map((clause) => clause.trim()).filter((clause) => wordCount(clause) >= 2);
  if (kept.length < 2) return [];
  if (kept.length <= MAX_REQUEST_CLAUSES) return kept;
  return [...kept.slice(0, MAX_REQUEST_CLAUSES - 1), kept.slice(MAX_REQUEST_CLAUSES - 1).join(' ')];
}
