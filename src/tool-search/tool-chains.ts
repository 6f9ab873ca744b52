import { TopScores } from '../internal/search-text/top-scores.js';
import { splitIdentifier } from '../internal/search-text/words.js';
import type { JsonSchema } from '../tools/json-schema.js';
import type { ToolReference } from './tool-reference.js';
import { CALENDAR_DATE, parameterValueKinds, ValueKind } from './value-kinds.js';

/** Where a required parameter's value comes from, as its description says. */
export interface ParameterSource {
  /** Identifier-shaped words of the description: the other tools it may name. */
  readonly toolNames: readonly string[];
  /** The {@link ValueKind}s the parameter takes (0 when none is recognised). */
  readonly kinds: number;
}

/** What a tool needs from other tools and what it gives them. */
export interface ToolChainProfile {
  /** A required parameter takes a latitude, a longitude or coordinates. */
  readonly requiresCoordinates: boolean;
  /** The tool turns a place or an address into coordinates: a geocoder. */
  readonly givesCoordinates: boolean;
  /** Required parameters whose description names the tools that give their value. */
  readonly sources: readonly ParameterSource[];
}

const COORDINATE_WORDS = new Set([
  'latitude',
  'longitude',
  'lat',
  'lng',
  'lon',
  'latlng',
  'latlon',
  'coordinate',
  'coordinates',
  'coords',
]);
/** Letters every coordinate or geocoding word contains. */
const COORDINATE_LETTERS = /lat|lng|lon|coord|geocod/i;
const GEOCODE_WORDS = new Set(['geocode', 'geocoding', 'geocoder', 'geocodes']);
const PLACE_WORDS = new Set(['address', 'city', 'place', 'location', 'zip', 'postcode']);
/** The description says the tool returns coordinates ("converts an address to coordinates"). */
const GIVES_COORDINATES =
  /\b(?:to|into|returns?|gives?|gets?|obtains?|finds?|fetch(?:es)?|retrieves?|provides?)\s+(?:(?:the|its|their|precise|exact|geographic(?:al)?|gps)\s+){0,3}(?:coordinates|latitude\s+and\s+longitude)\b/i;
/** A cheap test before {@link GIVES_COORDINATES}: most descriptions mention no coordinates. */
const COORDINATE_MENTION = /coordinates|latitude/i;
/** …of a place on Earth, not of a neuron or a pixel. */
const NAMES_A_PLACE =
  /\b(?:address(?:es)?|places?|city|cities|locations?|landmarks?|towns?|streets?)\b/i;
/** An identifier in running text that could be a tool name: `get_station_code`, `resolveId`. */
const IDENTIFIER = /[A-Za-z][\w.:-]*[A-Za-z0-9]/g;
const IDENTIFIER_SHAPE = /[_-]|[a-z][A-Z]/;
/** At most this many characters of a description are read for what the tool gives. */
const DESCRIPTION_PREFIX = 400;

/**
 * What a tool needs from other tools and what it gives them, from its name, description and input
 * schema: computed once, when the tool is indexed.
 */
export function toolChainProfile(reference: ToolReference): ToolChainProfile {
  const schema = reference.inputSchema;
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  let requiresCoordinates = false;
  const sources: ParameterSource[] = [];
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (!required.has(name)) continue;
    if (mayNameCoordinates(name) && splitIdentifier(name).some((w) => COORDINATE_WORDS.has(w))) {
      requiresCoordinates = true;
    }
    const description = (property as JsonSchema | undefined)?.description;
    if (typeof description === 'string' && IDENTIFIER_SHAPE.test(description)) {
      const toolNames = identifiersIn(description, reference.toolName);
      if (toolNames.length > 0) sources.push({ toolNames, kinds: parameterKinds(name, property) });
    }
  }
  const nameWords = mayNameCoordinates(reference.toolName)
    ? splitIdentifier(reference.toolName)
    : [];
  const description = reference.summary.slice(0, DESCRIPTION_PREFIX);
  const namedGeocoder =
    (nameWords.some((word) => GEOCODE_WORDS.has(word)) ||
      (nameWords.some((word) => COORDINATE_WORDS.has(word)) &&
        nameWords.some((word) => PLACE_WORDS.has(word)))) &&
    !nameWords.includes('reverse');
  const describedGeocoder =
    COORDINATE_MENTION.test(description) &&
    GIVES_COORDINATES.test(description) &&
    NAMES_A_PLACE.test(description);
  return {
    requiresCoordinates,
    // A tool that needs coordinates itself (a reverse geocoder) does not give them.
    givesCoordinates: (namedGeocoder || describedGeocoder) && !requiresCoordinates,
    sources,
  };
}

/**
 * Whether an identifier may hold a coordinate or geocoding word: a cheap test before splitting it
 * into words, which most names do not need.
 */
function mayNameCoordinates(identifier: string): boolean {
  return COORDINATE_LETTERS.test(identifier);
}

/** The value kinds of one parameter. */
function parameterKinds(name: string, property: unknown): number {
  return parameterValueKinds({ properties: { [name]: property as JsonSchema }, required: [name] })
    .required;
}

/** Identifier-shaped words of a text other than the tool's own name. */
function identifiersIn(text: string, ownName: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(IDENTIFIER)) {
    const word = match[0];
    if (IDENTIFIER_SHAPE.test(word) && word !== ownName && word !== shortName(ownName)) {
      names.add(word);
    }
  }
  return [...names];
}

/**
 * The name of a tool without the server prefix a client may add (`weather::get_forecast`,
 * `mcp__weather__get_forecast`, `weather/get_forecast` → `get_forecast`): descriptions name
 * their sibling tools by their own names.
 */
export function shortName(toolName: string): string {
  let cut = 0;
  for (const separator of ['::', '__', '/']) {
    const at = toolName.lastIndexOf(separator);
    if (at >= 0) cut = Math.max(cut, at + separator.length);
  }
  return cut < toolName.length ? toolName.slice(cut) : toolName;
}

/**
 * A latitude and longitude given as numbers ("40.71, -74.00", "39.9° N, 116.4° E") or by name
 * ("lat 40.7"). Bounded repeats only: linear time on any request.
 */
const COORDINATES =
  /-?\d{1,3}\.\d{1,12}°?\s?[NS]?\s?,\s?-?\d{1,3}\.\d|\b(?:lat(?:itude)?|lon(?:gitude)?)\b\s?[:=]?\s?-?\d/i;
/** A token that looks like an identifier's value: a long number or letters mixed with digits. */
const IDENTIFIER_VALUE = /\b\d{4,}\b|\b(?=[a-z]*\d)(?=\d*[a-z])[a-z\d]{4,}\b/i;

/** What a request gives of the values tools chain: see {@link requestChainValues}. */
export interface RequestChainValues {
  /** It gives a latitude and longitude. */
  readonly coordinates: boolean;
  /** It names a date that needs no current date ("April 5th", "2023-04-05"). */
  readonly absoluteDate: boolean;
  /** It holds an identifier-like value: a long number or letters mixed with digits. */
  readonly identifier: boolean;
  /** Its {@link ValueKind}s. */
  readonly kinds: number;
}

/** Reads the values a request gives from its text and its {@link ValueKind}s. */
export function requestChainValues(text: string, kinds: number): RequestChainValues {
  return {
    coordinates: COORDINATES.test(text),
    absoluteDate: CALENDAR_DATE.test(text),
    identifier: IDENTIFIER_VALUE.test(text),
    kinds,
  };
}

/**
 * Whether a request gives the value of a parameter taking these kinds: a date only as a date of
 * the calendar ("tomorrow" takes the current date first), another recognised kind when the request
 * carries it, anything else (a code, an id) when the request holds an identifier-like value.
 */
function gives(request: RequestChainValues, kinds: number): boolean {
  if (kinds & ValueKind.DATE) return request.absoluteDate;
  if (kinds !== 0) return (request.kinds & kinds) === kinds;
  return request.identifier;
}

/** How many of a search's best tools are read for the values they need. */
const CONSUMER_DEPTH = 3;
/**
 * A lifted producer scores this share of the score of the tool that needs it: just below it, and
 * above tools that match the request much less. Chosen on the tuning halves (0.7 to 1.0).
 */
const PRODUCER_SHARE = 0.8;

/**
 * The chain profiles of one index session's tools, by slot: which tools give coordinates, and
 * which tools each required parameter names as its source. A search lifts the producers of what
 * its best tools need and the request lacks.
 */
export class ToolChains {
  readonly #profiles: (ToolChainProfile | undefined)[] = [];
  readonly #names: (string | undefined)[] = [];
  /** Slots by full and short name, built when a search first needs it after a change. */
  #slotsByName: Map<string, number[]> | undefined;
  readonly #geocoders = new Set<number>();
  /** Tools that need a value from another tool: with none, a search has nothing to lift. */
  #consumers = 0;

  /** Records the tool in a slot (replacing the slot's previous tool). */
  add(slot: number, reference: ToolReference): void {
    this.remove(slot);
    const profile = toolChainProfile(reference);
    this.#names[slot] = reference.toolName;
    this.#slotsByName = undefined;
    if (profile.givesCoordinates) this.#geocoders.add(slot);
    if (profile.requiresCoordinates || profile.sources.length > 0) {
      this.#profiles[slot] = profile;
      this.#consumers++;
    }
  }

  /** Forgets the tool in a slot. */
  remove(slot: number): void {
    const name = this.#names[slot];
    if (name === undefined) return;
    this.#slotsByName = undefined;
    this.#geocoders.delete(slot);
    if (this.#profiles[slot] !== undefined) this.#consumers--;
    this.#profiles[slot] = undefined;
    this.#names[slot] = undefined;
  }

  /**
   * Raises to {@link PRODUCER_SHARE} of a best tool's score (when not higher already) the score
   * of each tool that produces a value one of the {@link CONSUMER_DEPTH} best tools requires and
   * the request lacks: the best-scoring geocoder for a tool that requires a latitude and the
   * request gives none, and the tools a required parameter's description names as its source
   * ("the `station_code` from `get-station-code-by-names`") when the request does not give it.
   *
   * @param request what the request gives, read only when a best tool needs something
   * @param order a slot's tie-break order (lower first), as the final ranking uses
   * @param accepted 1 for each slot the search may return, when not every slot may
   */
  liftProducers(
    scores: Float64Array,
    request: () => RequestChainValues,
    order: (slot: number) => number,
    accepted?: Uint8Array,
  ): void {
    if (this.#consumers === 0) return;
    const isAccepted = (slot: number) => accepted === undefined || accepted[slot] === 1;
    const lifted = new Map<number, number>();
    const lift = (slot: number, score: number) => {
      if (isAccepted(slot) && (lifted.get(slot) ?? 0) < score) lifted.set(slot, score);
    };
    let values: RequestChainValues | undefined;
    for (const consumer of bestSlots(scores, CONSUMER_DEPTH, order, accepted)) {
      const score = scores[consumer] as number;
      const profile = this.#profiles[consumer];
      if (profile === undefined) continue;
      values ??= request();
      const target = PRODUCER_SHARE * score;
      if (profile.requiresCoordinates && !values.coordinates) {
        // One geocoder is enough: lifting every one would fill the first results with them.
        const geocoder = this.#bestOf(this.#geocoders, scores, order, isAccepted);
        if (geocoder !== undefined) lift(geocoder, target);
      }
      for (const source of profile.sources) {
        if (gives(values, source.kinds)) continue;
        for (const name of source.toolNames) {
          for (const producer of this.#namedTools(name, consumer)) lift(producer, target);
        }
      }
    }
    for (const [slot, score] of lifted) {
      if ((scores[slot] as number) < score) scores[slot] = score;
    }
  }

  #bestOf(
    slots: ReadonlySet<number>,
    scores: Float64Array,
    order: (slot: number) => number,
    isAccepted: (slot: number) => boolean,
  ): number | undefined {
    let best: number | undefined;
    for (const slot of slots) {
      if (!isAccepted(slot)) continue;
      const score = scores[slot] as number;
      const bestScore = best === undefined ? -1 : (scores[best] as number);
      if (score > bestScore || (score === bestScore && order(slot) < order(best as number))) {
        best = slot;
      }
    }
    return best;
  }

  /**
   * The slots of the tools a consumer's description calls `name`: by full name, else by name
   * without a server prefix, those of the consumer's own server when several servers have one.
   */
  #namedTools(name: string, consumer: number): number[] {
    const slots = this.#nameTable().get(name);
    if (slots === undefined) return [];
    const all = slots.filter((slot) => slot !== consumer);
    if (all.length < 2) return all;
    const consumerName = this.#names[consumer] as string;
    const prefix = consumerName.slice(0, consumerName.length - shortName(consumerName).length);
    const sameServer = all.filter((slot) => (this.#names[slot] as string).startsWith(prefix));
    return sameServer.length > 0 ? sameServer : all;
  }

  /** The slots of each full and short tool name (indexing many tools need not build it each time). */
  #nameTable(): Map<string, number[]> {
    if (this.#slotsByName === undefined) {
      const table = new Map<string, number[]>();
      this.#names.forEach((name, slot) => {
        if (name === undefined) return;
        const short = shortName(name);
        for (const key of short === name ? [name] : [name, short]) {
          const slots = table.get(key);
          if (slots === undefined) table.set(key, [slot]);
          else slots.push(slot);
        }
      });
      this.#slotsByName = table;
    }
    return this.#slotsByName;
  }
}

/**
 * The slots of the `depth` best positive scores the search may return, best first, ties to the
 * lower order (`order` is read only for scores that can enter).
 */
function bestSlots(
  scores: Float64Array,
  depth: number,
  order: (slot: number) => number,
  accepted: Uint8Array | undefined,
): number[] {
  const top = new TopScores(depth);
  for (let slot = 0; slot < scores.length; slot++) {
    const score = scores[slot] as number;
    if (!(score > 0) || score < top.threshold) continue;
    if (accepted !== undefined && accepted[slot] !== 1) continue;
    top.offer(slot, score, order(slot));
  }
  return top.best().map(({ item }) => item);
}
