const VOWEL = /[aeiouy]/;

/**
 * A small English suffix stemmer for search terms: plural, `-ing`, `-ed`, `-ation` and a final
 * `-e` are removed so that `invoices`, `invoice`, `searching`, `searches`, `created` and
 * `creation` meet their base form. Not a full Porter stemmer: it only needs to map the forms
 * that tool descriptions and user requests mix up onto one term, and never merges short words.
 */
export function stemTerm(term: string): string {
  let stem = stems.get(term);
  if (stem === undefined) {
    if (stems.size >= MAX_CACHED_STEMS) stems.clear();
    stem = stemUncached(term);
    stems.set(term, stem);
  }
  return stem;
}

/** Stems already computed: tool texts repeat the same words, and indexing stems every one. */
const stems = new Map<string, string>();
const MAX_CACHED_STEMS = 50_000;

function stemUncached(term: string): string {
  if (term.length <= 3 || !/^[a-z]+$/.test(term)) return term;
  let stem = term;
  if (stem.endsWith('ies') && stem.length > 4) stem = `${stem.slice(0, -3)}y`;
  else if (stem.endsWith('ied') && stem.length > 4) stem = `${stem.slice(0, -3)}y`;
  else if (stem.endsWith('sses')) stem = stem.slice(0, -2);
  else if (/(?:ch|sh|x|z|ss)es$/.test(stem)) stem = stem.slice(0, -2);
  else if (stem.endsWith('s') && !/(?:ss|us|is)$/.test(stem)) stem = stem.slice(0, -1);
  if (stem.endsWith('ation') && stem.length > 7) {
    stem = `${stem.slice(0, -5)}ate`;
  } else if (stem.endsWith('ing') && VOWEL.test(stem.slice(0, -3)) && stem.length > 5) {
    stem = undouble(stem.slice(0, -3));
  } else if (stem.endsWith('ed') && VOWEL.test(stem.slice(0, -2)) && stem.length > 4) {
    stem = undouble(stem.slice(0, -2));
  }
  if (stem.endsWith('e') && stem.length > 3) stem = stem.slice(0, -1);
  return stem;
}

function undouble(stem: string): string {
  const last = stem.at(-1);
  if (stem.length > 3 && last === stem.at(-2) && last !== undefined && !'lsz'.includes(last)) {
    return stem.slice(0, -1);
  }
  return stem;
}
