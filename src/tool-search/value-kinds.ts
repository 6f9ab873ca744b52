import { splitIdentifier } from '../internal/search-text/words.js';
import type { JsonSchema } from '../tools/json-schema.js';

/**
 * Kinds of value a request can carry and a tool parameter can take, one bit each: a request "for
 * 4 adults on April 5th in Portland" carries `PEOPLE | DATE | PLACE`.
 */
export const ValueKind = {
  DATE: 1,
  TIME: 2,
  MONEY: 4,
  EMAIL: 8,
  URL: 16,
  PLACE: 32,
  PEOPLE: 64,
  FILE: 128,
} as const;

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const ORDINAL = '\\d{1,2}(?:st|nd|rd|th)?';

/** Dates of the calendar: "April 5th", "5th of April", "2023-04-05", "05/04/2023". */
const CALENDAR_DATE_SOURCES = [
  `\\b${MONTH}\\.?\\s+${ORDINAL}\\b`,
  `\\b${ORDINAL}\\s+(?:of\\s+)?${MONTH}\\b`,
  '\\b\\d{4}[-/.]\\d{1,2}[-/.]\\d{1,2}\\b',
  '\\b\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{2,4}\\b',
];

/** A date that needs no current date to be known ("April 5th", "2023-04-05"; not "tomorrow"). */
export const CALENDAR_DATE = new RegExp(CALENDAR_DATE_SOURCES.join('|'), 'i');

// Every pattern is a plain alternation with bounded repeats: linear time on any input.
const REQUEST_PATTERNS: readonly [number, RegExp][] = [
  [
    ValueKind.DATE,
    new RegExp(
      [
        ...CALENDAR_DATE_SOURCES,
        '\\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\\b',
        '\\b(?:today|tomorrow|tonight|yesterday)\\b',
        '\\b(?:next|last|this)\\s+(?:week|month|year|weekend)\\b',
      ].join('|'),
      'i',
    ),
  ],
  [
    ValueKind.TIME,
    /\b\d{1,2}(?::\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)(?![a-z])|\b\d{1,2}:\d{2}\b|\b(?:noon|midnight|o'clock)\b/i,
  ],
  [
    ValueKind.MONEY,
    /[$€£¥₹]\s?\d|\b\d+(?:[.,]\d+)?\s?(?:[$€£¥₹]|(?:usd|eur|gbp|euros?|dollars?|bucks|pounds|yen|rupees?)\b)/i,
  ],
  [ValueKind.EMAIL, /\b[\w.+-]{1,64}@[\w-]{1,63}\.[a-z]{2,}\b/i],
  [ValueKind.URL, /\bhttps?:\/\/|\bwww\.[\w-]+\./i],
  // A capitalised name after a preposition of place: "in Portland", "near San Jose, CA".
  [ValueKind.PLACE, /\b(?:in|at|near|from|to|around)\s+(?:the\s+)?[A-Z][a-z]+/],
  [
    ValueKind.PEOPLE,
    /\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:people|persons|adults?|guests?|passengers?|travell?ers?|kids|children|friends|members|tickets?|seats?)\b/i,
  ],
  [
    ValueKind.FILE,
    /(?:^|\s)~?\.{0,2}\/[\w.-]+\/|\b[\w-]+\.(?:txt|csv|json|pdf|docx?|xlsx?|pptx?|png|jpe?g|md|html?|xml|ya?ml|zip)\b/i,
  ],
];

/** The kinds of value a request's text carries ("on April 5th" → date, "$100" → money). */
export function requestValueKinds(text: string): number {
  let kinds = 0;
  for (const [kind, pattern] of REQUEST_PATTERNS) if (pattern.test(text)) kinds |= kind;
  return kinds;
}

/** Words of a parameter name that say which kind of value it takes. */
const PARAMETER_NAME_WORDS: ReadonlyMap<string, number> = new Map(
  (
    [
      [ValueKind.DATE, ['date', 'day', 'birthday', 'dob', 'checkin', 'checkout']],
      [ValueKind.TIME, ['time', 'hour', 'datetime', 'timestamp']],
      [
        ValueKind.MONEY,
        [
          'amount',
          'price',
          'cost',
          'budget',
          'fee',
          'salary',
          'payment',
          'fare',
          'money',
          'principal',
          'deposit',
          'investment',
          'income',
          'loan',
          'balance',
        ],
      ],
      [ValueKind.EMAIL, ['email', 'mail']],
      [ValueKind.URL, ['url', 'uri', 'link', 'website', 'href']],
      [
        ValueKind.PLACE,
        [
          'location',
          'loc',
          'city',
          'address',
          'place',
          'destination',
          'origin',
          'country',
          'region',
          'area',
          'venue',
          'town',
        ],
      ],
      [
        ValueKind.PEOPLE,
        [
          'people',
          'persons',
          'guests',
          'adults',
          'passengers',
          'travelers',
          'travellers',
          'party',
          'seats',
          'tickets',
          'attendees',
        ],
      ],
      [ValueKind.FILE, ['file', 'filename', 'filepath', 'path', 'dir', 'directory', 'folder']],
    ] as const
  ).flatMap(([kind, words]) => words.map((word): [string, number] => [word, kind])),
);

/** JSON Schema `format` values and the kinds they take. */
const FORMAT_KINDS: ReadonlyMap<string, number> = new Map([
  ['date', ValueKind.DATE],
  ['date-time', ValueKind.DATE | ValueKind.TIME],
  ['time', ValueKind.TIME],
  ['email', ValueKind.EMAIL],
  ['idn-email', ValueKind.EMAIL],
  ['uri', ValueKind.URL],
  ['url', ValueKind.URL],
  ['iri', ValueKind.URL],
]);

const MAX_SCHEMA_DEPTH = 4;

/** The kinds of value a tool's parameters take, and those of its required top-level parameters. */
export interface ParameterValueKinds {
  /** Kinds any parameter takes, nested ones included. */
  readonly taken: number;
  /** Kinds of the top-level parameters listed in `required`. */
  readonly required: number;
}

/**
 * The kinds of value an input schema's parameters take, from their names (`check_in_date`,
 * `numberOfAdults`, `city`) and JSON Schema `format`s (`date-time`, `email`, `uri`).
 */
export function parameterValueKinds(schema: JsonSchema | undefined): ParameterValueKinds {
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  let requiredKinds = 0;
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (required.has(name)) requiredKinds |= propertyKinds(name, property);
  }
  return { taken: collectKinds(schema, 0), required: requiredKinds };
}

function propertyKinds(name: string, property: unknown): number {
  let kinds = 0;
  for (const word of splitIdentifier(name)) kinds |= PARAMETER_NAME_WORDS.get(word) ?? 0;
  const format = (property as JsonSchema | undefined)?.format;
  if (typeof format === 'string') kinds |= FORMAT_KINDS.get(format) ?? 0;
  return kinds;
}

function collectKinds(schema: unknown, depth: number): number {
  if (depth > MAX_SCHEMA_DEPTH || typeof schema !== 'object' || schema === null) return 0;
  const node = schema as JsonSchema;
  let kinds = 0;
  if (typeof node.properties === 'object' && node.properties !== null) {
    for (const [name, property] of Object.entries(node.properties)) {
      kinds |= propertyKinds(name, property) | collectKinds(property, depth + 1);
    }
  }
  for (const item of Array.isArray(node.items) ? node.items : [node.items]) {
    kinds |= collectKinds(item, depth + 1);
  }
  return kinds;
}

/**
 * A tool's {@link parameterValueKinds} in one number, as {@link weighByValueKinds} reads them: the
 * kinds taken in the low byte, those of required parameters in the high byte.
 */
export function packedParameterValueKinds(schema: JsonSchema | undefined): number {
  const kinds = parameterValueKinds(schema);
  return kinds.taken | (kinds.required << 8);
}

/**
 * Value kinds (see {@link weighByValueKinds}): a tool taking every kind of value the request
 * carries scores this much more; each kind its required parameters take and the request lacks
 * multiplies its score by {@link MISSING_KIND_FACTOR}. Chosen on the tuning halves.
 */
const MATCHED_KINDS_BOOST = 0.3;
const MISSING_KIND_FACTOR = 0.85;

/**
 * Multiplies each matched tool's score by how well its parameters fit the kinds of value the
 * request carries: up to {@link MATCHED_KINDS_BOOST} more for taking every kind the request has
 * (a date, a number of people), {@link MISSING_KIND_FACTOR} for each kind a required parameter
 * takes that the request does not carry (a booking tool needing a date, asked with none).
 */
export function weighByValueKinds(
  scores: Float64Array,
  toolKinds: Uint16Array,
  requestKinds: number,
): void {
  const { taken, required } = kindFactors(requestKinds);
  for (let slot = 0; slot < scores.length; slot++) {
    const kinds = toolKinds[slot] as number;
    // A tool taking no kind of value keeps its score (both factors are 1), as does a non-match.
    if (kinds === 0) continue;
    const score = scores[slot] as number;
    if (score > 0) {
      scores[slot] = score * (taken[kinds & 0xff] as number) * (required[kinds >> 8] as number);
    }
  }
}

/** The number of bits set in each byte. */
const BIT_COUNTS = Uint8Array.from({ length: 256 }, (_, byte) => {
  let count = 0;
  for (let rest = byte; rest !== 0; rest &= rest - 1) count++;
  return count;
});

/** {@link MISSING_KIND_FACTOR} to the power of 0 to 8 missing kinds. */
const MISSING_KIND_POWERS = Float64Array.from({ length: 9 }, (_, n) => MISSING_KIND_FACTOR ** n);

/** The factor tables of each set of request kinds met so far, by its bits. */
const KIND_FACTORS: ({ taken: Float64Array; required: Float64Array } | undefined)[] = [];

/**
 * For a request's kinds, the score factor of each possible byte of a tool's taken kinds and of
 * its required kinds, so the loop over the tools is two table reads and a multiplication.
 */
function kindFactors(requestKinds: number): { taken: Float64Array; required: Float64Array } {
  let factors = KIND_FACTORS[requestKinds];
  if (factors === undefined) {
    const taken = new Float64Array(256);
    const required = new Float64Array(256);
    const requestKindCount = BIT_COUNTS[requestKinds] as number;
    for (let kinds = 0; kinds < 256; kinds++) {
      const matched = BIT_COUNTS[kinds & requestKinds] as number;
      taken[kinds] =
        requestKindCount === 0 ? 1 : 1 + (MATCHED_KINDS_BOOST * matched) / requestKindCount;
      required[kinds] = MISSING_KIND_POWERS[BIT_COUNTS[kinds & ~requestKinds] as number] as number;
    }
    factors = { taken, required };
    KIND_FACTORS[requestKinds] = factors;
  }
  return factors;
}
