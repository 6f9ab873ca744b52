import { InvalidArgumentError } from '../errors/index.js';
import { optionNames, rejectUnknownOptions } from '../internal/option-names.js';
import { FieldWeightedBm25 } from '../internal/search-text/field-weighted-bm25.js';
import { STOP_WORDS } from '../internal/search-text/stop-words.js';
import { stemTerm } from '../internal/search-text/suffix-stemmer.js';
import { TopScores } from '../internal/search-text/top-scores.js';
import { words } from '../internal/search-text/words.js';
import { categoryMatcher } from './category-filter.js';
import { checkSearchRequest } from './check-search-request.js';
import type { QueryExpansion, QueryExpansionContext } from './query-expansion.js';
import { schemaEnumValues } from './schema-enum-values.js';
import type { ToolIndex } from './tool-index.js';
import type { ToolReference, ToolSearchRequest, ToolSearchResponse } from './tool-reference.js';
import { isBlank, schemaParameterFields } from './tool-search-text.js';
import { ToolSlots } from './tool-slots.js';

/** Field weights of a {@link LexicalToolIndex}; a weight of 0 leaves the field out. */
export interface LexicalToolIndexFieldWeights {
  /** The tool name split into words. Default 3. */
  readonly name?: number;
  /** The description. Default 1.5. */
  readonly description?: number;
  /** Parameter names split into words. Default 1. */
  readonly parameterNames?: number;
  /**
   * Parameter descriptions, with the string values parameters allow (`enum`, `const`): a request
   * often names a value ("an IMAX showing") rather than the parameter. Default 1.
   */
  readonly parameterDescriptions?: number;
}

/** Options of {@link LexicalToolIndex}. */
export interface LexicalToolIndexOptions {
  /** Field weights; a weight of 0 leaves the field out. */
  readonly fieldWeights?: LexicalToolIndexFieldWeights;
  /**
   * Also match indexed words that start with a query word of 4+ letters (`deploy` finds
   * `deployment`), weighted by the share of the word the query covers. Default `false`: it
   * gains on some data sets and loses on others (docs/tool-search.md).
   */
  readonly prefix?: boolean;
  /**
   * Words searched besides each query word (synonyms, your catalogue's jargon), weighted below
   * the query's own. Default: none; the core ships no word list (`@toolloop/word-vectors` has one).
   */
  readonly queryExpansion?: QueryExpansion;
  /** Hits scoring below this are dropped. Default `0`. */
  readonly minScore?: number;
  /** Results when a request gives no `maxResults`. Default 10. */
  readonly defaultMaxResults?: number;
}

/** Only this many characters of a query are read. */
const MAX_QUERY_LENGTH = 4096;
/** Only this many distinct query words are searched; a longer query is text, not a search. */
const MAX_QUERY_WORDS = 64;
const MIN_PREFIX_LENGTH = 4;
const PREFIX_WEIGHT = 0.5;
/** Length normalisation (BM25's b) of every field. */
const LENGTH_NORMALIZATION = 0.6;
const FIELD_NAMES = ['name', 'description', 'parameterNames', 'parameterDescriptions'] as const;
const FIELD_NAME_SET: ReadonlySet<string> = new Set(FIELD_NAMES);
const DEFAULT_FIELD_WEIGHTS = [3, 1.5, 1, 1];
const OPTION_NAMES = optionNames<LexicalToolIndexOptions>()(
  'fieldWeights',
  'prefix',
  'queryExpansion',
  'minScore',
  'defaultMaxResults',
);

interface LexicalSession {
  /** The scorer identifies a tool by its slot. */
  readonly tools: ToolSlots;
  readonly scorer: FieldWeightedBm25;
  /** Each slot's score, reused by every search of the session. */
  scores: Float64Array;
}

/**
 * Field-weighted BM25 (BM25F) over a tool's name, description, parameter names and parameter
 * descriptions with the values parameters allow, each its own field with its own weight:
 * identifiers are split (`getCurrentWeather`, `get_current_weather`, `get-current-weather`), stop
 * words dropped and words stemmed. It ships no word list and reads no file; a search costs the
 * postings of its words. Prefix matching and query expansion (a {@link QueryExpansion} you pass)
 * are options, off by default. The default index of `ToolSearchToolCallingAdvisor`.
 */
export class LexicalToolIndex implements ToolIndex {
  readonly #sessions = new Map<string, LexicalSession>();
  readonly #searchType: string;
  readonly #fieldWeights: readonly number[];
  readonly #prefix: boolean;
  readonly #queryExpansion: QueryExpansion | undefined;
  readonly #minScore: number;
  readonly #defaultMaxResults: number;

  /**
   * @throws InvalidArgumentError on an option this index does not have, a field weight that is
   * negative (or every weight 0), `prefix` not a boolean, a `queryExpansion` without an `expand`
   * function, or a limit out of range.
   */
  constructor(options: LexicalToolIndexOptions = {}) {
    this.#searchType = new.target.name;
    rejectUnknownOptions(options, OPTION_NAMES, new.target.name);
    const weights = options.fieldWeights ?? {};
    rejectUnknownOptions(weights, FIELD_NAME_SET, 'fieldWeights', 'field');
    this.#fieldWeights = FIELD_NAMES.map(
      (field, i) => weights[field] ?? (DEFAULT_FIELD_WEIGHTS[i] as number),
    );
    if (this.#fieldWeights.some((weight) => !(typeof weight === 'number' && weight >= 0))) {
      throw new InvalidArgumentError('field weights must be numbers >= 0');
    }
    if (this.#fieldWeights.every((weight) => weight === 0)) {
      throw new InvalidArgumentError('at least one field weight must be positive');
    }
    if (options.prefix !== undefined && typeof options.prefix !== 'boolean') {
      throw new InvalidArgumentError('prefix must be a boolean');
    }
    this.#prefix = options.prefix ?? false;
    const expansion = options.queryExpansion;
    if (expansion !== undefined && typeof expansion?.expand !== 'function') {
      throw new InvalidArgumentError('queryExpansion must be an object with an expand function');
    }
    this.#queryExpansion = expansion;
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
  indexTools(sessionId: string, references: readonly ToolReference[]): void {
    if (references.length === 0) return;
    const session = this.#session(sessionId);
    for (const reference of references) {
      const previous = session.tools.slotOf(reference.toolName);
      if (previous !== undefined) {
        session.scorer.remove(previous);
        session.tools.remove(previous);
      }
      const slot = session.tools.add(reference);
      const parameters = schemaParameterFields(reference.inputSchema);
      const texts = [
        reference.toolName,
        reference.summary,
        parameters.names.join(' '),
        [...parameters.descriptions, ...schemaEnumValues(reference.inputSchema)].join(' '),
      ];
      session.scorer.add(
        slot,
        texts.map((text, field) => (this.#fieldWeights[field] === 0 ? [] : terms(text))),
      );
    }
  }

  /** {@inheritDoc ToolIndex.indexTool} */
  indexTool(sessionId: string, reference: ToolReference): void {
    this.indexTools(sessionId, [reference]);
  }

  /** {@inheritDoc ToolIndex.search} */
  search(request: ToolSearchRequest): ToolSearchResponse {
    checkSearchRequest(request);
    const started = performance.now();
    const session = isBlank(request.sessionId) ? undefined : this.#sessions.get(request.sessionId);
    const maxResults = request.maxResults ?? this.#defaultMaxResults;
    const toolReferences: ToolReference[] = [];
    let categoryFilterApplied = false;
    if (session !== undefined && !isBlank(request.query)) {
      const { tools } = session;
      const inCategory = categoryMatcher(tools.references(), request.categoryFilter);
      categoryFilterApplied = inCategory !== undefined;
      const scores = clearedScores(session);
      session.scorer.score(this.#queryTerms(request.query, session.scorer), scores);
      const top = new TopScores(maxResults);
      for (let slot = 0; slot < scores.length; slot++) {
        const score = scores[slot] as number;
        if (score > 0 && score >= this.#minScore && score >= top.threshold) {
          const reference = tools.reference(slot) as ToolReference;
          if (inCategory === undefined || inCategory(reference)) {
            top.offer(slot, score, tools.order(slot));
          }
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
        searchType: this.#searchType,
        query: request.query,
        searchTimeMs: performance.now() - started,
        categoryFilterApplied,
      },
    };
  }

  /** {@inheritDoc ToolIndex.clearIndex} */
  clearIndex(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  /** Number of tools indexed for the session. */
  size(sessionId: string): number {
    return this.#sessions.get(sessionId)?.tools.size ?? 0;
  }

  /** The weighted terms searched for a query: its own words weigh 1, prefix and related words less. */
  #queryTerms(query: string, scorer: FieldWeightedBm25): Map<string, number> {
    const queryWords = [...new Set(contentWords(query.slice(0, MAX_QUERY_LENGTH)))].slice(
      0,
      MAX_QUERY_WORDS,
    );
    const searched = new Map<string, number>();
    const offer = (term: string, weight: number) => {
      if ((searched.get(term) ?? 0) < weight && scorer.documentFrequency(term) > 0) {
        searched.set(term, weight);
      }
    };
    for (const word of queryWords) offer(stemTerm(word), 1);
    if (this.#prefix) {
      for (const word of queryWords) {
        const stem = stemTerm(word);
        if (stem.length < MIN_PREFIX_LENGTH) continue;
        for (const longer of scorer.termsStartingWith(stem)) {
          offer(longer, (PREFIX_WEIGHT * stem.length) / longer.length);
        }
      }
    }
    const expansion = this.#queryExpansion;
    if (expansion !== undefined) {
      const context: QueryExpansionContext = {
        queryWords,
        toolCount: scorer.size,
        toolsWith: (word) => scorer.documentFrequency(stemTerm(word.toLowerCase())),
      };
      for (const word of queryWords) {
        for (const related of expansion.expand(word, context)) {
          const weight = Math.min(1, related.weight);
          if (!(weight > 0)) continue;
          for (const relatedWord of contentWords(related.word))
            offer(stemTerm(relatedWord), weight);
        }
      }
    }
    return searched;
  }

  #session(sessionId: string): LexicalSession {
    let session = this.#sessions.get(sessionId);
    if (session === undefined) {
      session = {
        tools: new ToolSlots(),
        scores: new Float64Array(0),
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

/** The session's score array, zeroed, one score per slot. */
function clearedScores(session: LexicalSession): Float64Array {
  const capacity = session.tools.capacity;
  if (session.scores.length < capacity) {
    session.scores = new Float64Array(Math.max(capacity, 2 * session.scores.length));
  } else {
    session.scores.fill(0, 0, capacity);
  }
  return session.scores.subarray(0, capacity);
}

/** The words of a text without stop words, repeats kept (a repeated word weighs more). */
function contentWords(text: string): string[] {
  return words(text).filter((word) => !STOP_WORDS.has(word));
}

/** The index terms of a text: the stems of its content words. */
function terms(text: string): string[] {
  return contentWords(text).map(stemTerm);
}
