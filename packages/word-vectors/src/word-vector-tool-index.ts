import {
  InvalidArgumentError,
  LexicalToolIndex,
  type ToolIndex,
  type ToolReference,
  type ToolSearchRequest,
  type ToolSearchResponse,
} from 'toolloop';
import { schemaText } from './schema-text.js';
import { vectorWords } from './vector-words.js';
import { WordVectorScorer } from './word-vector-scorer.js';
import { loadWordVectors, type WordVectors } from './word-vectors.js';

/** Options of {@link WordVectorToolIndex}. */
export interface WordVectorToolIndexOptions {
  /**
   * The index whose scores the word-vector similarities are added to. Default: a new
   * `LexicalToolIndex` (pass one with a `queryExpansion` to use both tables).
   */
  readonly lexicalIndex?: ToolIndex;
  /**
   * Weight of the cosine similarity (in [-1, 1]) added to each tool's lexical score, which is
   * divided by the second-best lexical hit's first. Default 1.
   */
  readonly weight?: number;
  /** Results when a request gives no `maxResults`. Default 10. */
  readonly defaultMaxResults?: number;
}

type IndexToolsOptions = Parameters<ToolIndex['indexTools']>[2];

/** Only this many characters of a query are read. */
const MAX_QUERY_LENGTH = 4096;
/**
 * In a tool's vector a word of its name weighs this many words of its description or
 * parameters: the name says in a few words what the tool does.
 */
const NAME_WORD_WEIGHT = 2;

interface Session {
  readonly scorer: WordVectorScorer;
  /** Each tool's slot: the index of its score and of its entries below. */
  readonly slots: Map<string, number>;
  readonly references: ToolReference[];
  /** When each slot's tool was (last) indexed: breaks ties between equal scores. */
  readonly orders: number[];
  nextOrder: number;
  scores: Float64Array;
}

/**
 * A lexical index plus meaning: each tool's score is its lexical score (divided by the
 * second-best hit's, so one tool far ahead does not flatten the rest) plus `weight` times the
 * cosine similarity of the query's and the tool's smooth-inverse-frequency weighted GloVe word
 * vectors, the catalogue's common direction removed. Finds tools that share no word with the
 * request ("psychologist" → a therapist finder). Reads the word-vector table (5 MB, about 40 MB
 * in memory) on the first indexing in a process; a search costs the lexical search of every tool
 * plus a 100-number dot product per tool.
 */
export class WordVectorToolIndex implements ToolIndex {
  readonly #lexical: ToolIndex;
  readonly #weight: number;
  readonly #defaultMaxResults: number;
  readonly #sessions = new Map<string, Session>();
  #vectors: WordVectors | undefined;

  /** @throws InvalidArgumentError when `weight` is negative or a limit is out of range. */
  constructor(options: WordVectorToolIndexOptions = {}) {
    this.#lexical = options.lexicalIndex ?? new LexicalToolIndex();
    this.#weight = options.weight ?? 1;
    this.#defaultMaxResults = options.defaultMaxResults ?? 10;
    if (!(Number.isFinite(this.#weight) && this.#weight >= 0)) {
      throw new InvalidArgumentError('weight must be a finite number >= 0');
    }
    if (!(Number.isInteger(this.#defaultMaxResults) && this.#defaultMaxResults > 0)) {
      throw new InvalidArgumentError('defaultMaxResults must be a positive integer');
    }
  }

  /** {@inheritDoc ToolIndex.indexTools} */
  async indexTools(
    sessionId: string,
    references: readonly ToolReference[],
    options?: IndexToolsOptions,
  ): Promise<void> {
    if (references.length === 0) return;
    this.#vectors ??= await loadWordVectors();
    await this.#lexical.indexTools(sessionId, references, options);
    const session = this.#session(sessionId, this.#vectors);
    for (const reference of references) {
      let slot = session.slots.get(reference.toolName);
      if (slot === undefined) {
        slot = session.references.length;
        session.slots.set(reference.toolName, slot);
      }
      session.references[slot] = reference;
      session.orders[slot] = session.nextOrder++;
      session.scorer.add(slot, ...toolWords(reference));
    }
  }

  /** {@inheritDoc ToolIndex.indexTool} */
  indexTool(sessionId: string, reference: ToolReference, options?: IndexToolsOptions) {
    return this.indexTools(sessionId, [reference], options);
  }

  /** {@inheritDoc ToolIndex.search} */
  async search(request: ToolSearchRequest): Promise<ToolSearchResponse> {
    const started = performance.now();
    const session = this.#sessions.get(request.sessionId);
    const maxResults = request.maxResults ?? this.#defaultMaxResults;
    const toolReferences: ToolReference[] = [];
    let categoryFilterApplied = false;
    if (session !== undefined && request.query.trim() !== '') {
      const lexical = await this.#lexical.search({
        ...request,
        maxResults: session.references.length,
      });
      categoryFilterApplied = lexical.searchMetadata.categoryFilterApplied === true;
      const scores = clearedScores(session);
      const hits = lexical.toolReferences;
      const scale = secondBest(hits);
      for (const hit of hits) {
        const slot = session.slots.get(hit.toolName);
        if (slot !== undefined) scores[slot] = (hit.relevanceScore ?? 0) / scale;
      }
      const queryWords = vectorWords(request.query.slice(0, MAX_QUERY_LENGTH));
      session.scorer.addSimilarities(queryWords, scores, this.#weight);
      const wanted = categoryFilterApplied ? request.categoryFilter?.trim().toLowerCase() : '';
      const ranked: number[] = [];
      for (let slot = 0; slot < session.references.length; slot++) {
        const category = (session.references[slot] as ToolReference).category;
        if ((scores[slot] as number) > 0 && (!wanted || category?.toLowerCase() === wanted)) {
          ranked.push(slot);
        }
      }
      ranked.sort(
        (a, b) =>
          (scores[b] as number) - (scores[a] as number) ||
          (session.orders[a] as number) - (session.orders[b] as number),
      );
      for (const slot of ranked.slice(0, Math.max(0, maxResults))) {
        const reference = session.references[slot] as ToolReference;
        toolReferences.push({ ...reference, relevanceScore: scores[slot] as number });
      }
    }
    return {
      toolReferences,
      totalMatches: toolReferences.length,
      searchMetadata: {
        searchType: 'WordVectorToolIndex',
        query: request.query,
        searchTimeMs: performance.now() - started,
        categoryFilterApplied,
      },
    };
  }

  /** {@inheritDoc ToolIndex.clearIndex} */
  async clearIndex(sessionId: string): Promise<void> {
    this.#sessions.delete(sessionId);
    await this.#lexical.clearIndex(sessionId);
  }

  /** Number of tools indexed for the session. */
  size(sessionId: string): number {
    return this.#sessions.get(sessionId)?.slots.size ?? 0;
  }

  #session(sessionId: string, vectors: WordVectors): Session {
    let session = this.#sessions.get(sessionId);
    if (session === undefined) {
      session = {
        scorer: new WordVectorScorer(vectors),
        slots: new Map(),
        references: [],
        orders: [],
        nextOrder: 0,
        scores: new Float64Array(0),
      };
      this.#sessions.set(sessionId, session);
    }
    return session;
  }
}

/** The words of a tool's vector and their weights: its name's words weigh more. */
function toolWords(reference: ToolReference): [string[], number[]] {
  const name = vectorWords(reference.toolName);
  const rest = vectorWords(`${reference.summary} ${schemaText(reference.inputSchema)}`);
  return [
    [...name, ...rest],
    [...name.map(() => NAME_WORD_WEIGHT), ...rest.map(() => 1)],
  ];
}

/**
 * The second-highest score of hits sorted best first, or the highest when only one is positive,
 * or 1 when none is: the unit lexical scores are divided by.
 */
function secondBest(hits: readonly ToolReference[]): number {
  const second = hits[1]?.relevanceScore ?? 0;
  if (second > 0) return second;
  const best = hits[0]?.relevanceScore ?? 0;
  return best > 0 ? best : 1;
}

/** The session's score array, zeroed, one score per slot. */
function clearedScores(session: Session): Float64Array {
  const count = session.references.length;
  if (session.scores.length < count) {
    session.scores = new Float64Array(Math.max(count, 2 * session.scores.length));
  } else {
    session.scores.fill(0, 0, count);
  }
  return session.scores.subarray(0, count);
}
