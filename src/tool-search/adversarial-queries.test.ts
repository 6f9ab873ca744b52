import { describe, expect, it } from 'vitest';
import { HashingEmbeddingModel } from '../embeddings/testing/hashing-embedding-model.js';
import { HybridToolIndex } from './hybrid-tool-index.js';
import { LexicalToolIndex } from './lexical-tool-index.js';
import { RegexToolIndex } from './regex-tool-index.js';
import { generateToolLibrary } from './testing/generate-tool-library.js';
import type { ToolIndex } from './tool-index.js';
import type { ToolReference } from './tool-reference.js';
import { VectorToolIndex } from './vector-tool-index.js';

const references: ToolReference[] = generateToolLibrary().map((tool) => ({
  toolName: tool.definition.name,
  summary: tool.definition.description,
  inputSchema: tool.definition.inputSchema,
}));

/** 100 hostile queries: ReDoS shapes, 10 KB texts, unicode oddities, names of tools not attached. */
function adversarialQueries(): string[] {
  const redos = [
    '(a+)+$',
    '(a|aa)+$',
    '(a|a?)+$',
    '(.*a){25}',
    '^(([a-z])+.)+[A-Z]([a-z])+$',
    '(\\w+\\s?)+$',
    '([a-zA-Z]+)*$',
    '(x+x+)+y',
    '[',
    ')(',
    '\\',
    '(?<=a)b',
    '\\p{L}+',
    '.*.*.*.*.*.*.*.*=.*',
    '$^|*+?{}[]()',
  ];
  const queries: string[] = [];
  for (const pattern of redos) {
    queries.push(pattern, `${'a'.repeat(5000)}!`, `${pattern} ${'a'.repeat(3000)}X`);
  }
  queries.push(
    'x'.repeat(10_240),
    'lookup '.repeat(1500),
    'the '.repeat(2600),
    Array.from({ length: 2000 }, (_, i) => `w${i}`).join(' '),
    'A'.repeat(10_240),
    'aB'.repeat(5120),
    '查询发票'.repeat(2560),
    '😀'.repeat(5000),
    '\uD800\uDC00\uD800'.repeat(1000),
    '\u0000\u0001\u0002'.repeat(3000),
    'e\u0301'.repeat(5000),
    'İstanbul ıi ǅ ß ﬃ',
    '\u202Eevil\u202C',
    ' \t\n'.repeat(3000),
    '',
    '   ',
    '"\'\\/<>&;',
    'Ω≈ç√∫˜µ≤≥÷',
    'null undefined NaN',
    '__proto__ constructor prototype',
  );
  const ghosts = ['billing_refund_ghost', 'tool_not_attached', 'rm -rf /', 'DROP TABLE tools;'];
  for (const ghost of ghosts) queries.push(ghost, `${ghost} `.repeat(500));
  while (queries.length < 100) queries.push(`${'(a+)+'.repeat(queries.length)}$`);
  return queries.slice(0, 100);
}

const indexes: { name: string; create: () => ToolIndex }[] = [
  { name: 'RegexToolIndex', create: () => new RegexToolIndex() },
  { name: 'LexicalToolIndex', create: () => new LexicalToolIndex() },
  {
    name: 'LexicalToolIndex with prefix matching and a query expansion',
    create: () =>
      new LexicalToolIndex({
        prefix: true,
        queryExpansion: { expand: (word) => [{ word: `${word}s`, weight: 0.5 }] },
      }),
  },
  {
    name: 'VectorToolIndex',
    create: () => new VectorToolIndex({ embeddingModel: new HashingEmbeddingModel() }),
  },
  {
    name: 'HybridToolIndex',
    create: () =>
      new HybridToolIndex({
        indexes: [
          new LexicalToolIndex(),
          new VectorToolIndex({ embeddingModel: new HashingEmbeddingModel() }),
        ],
      }),
  },
];

describe.each(indexes)('$name under adversarial queries', ({ create }) => {
  it('answers each of 100 hostile queries without hanging (best of three under 250 ms), only with attached tools', async () => {
    const index = create();
    await index.indexTools('s', references);
    await index.indexTools('other', [{ toolName: 'billing_refund_ghost', summary: 'ghost tool' }]);
    const attached = new Set(references.map((r) => r.toolName));
    const queries = adversarialQueries();
    expect(queries).toHaveLength(100);
    // Warm up once so the first timing does not include lazy compilation.
    await index.search({ sessionId: 's', query: 'warm up' });
    const slow: { query: string; ms: number }[] = [];
    for (const query of queries) {
      // Best of three, with a bound far above a normal search (tens of microseconds): a query
      // that backtracks or hangs takes seconds every time, while a busy shared CPU (or a GC
      // pause) only delays one run. This is a hang check, not a speed measurement (the bench is).
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 3 && best >= 250; run++) {
        const started = performance.now();
        const response = await index.search({ sessionId: 's', query });
        best = Math.min(best, performance.now() - started);
        for (const reference of response.toolReferences) {
          expect(attached.has(reference.toolName)).toBe(true);
        }
        expect(response.toolReferences.length).toBeLessThanOrEqual(10);
      }
      if (best >= 250) slow.push({ query: query.slice(0, 40), ms: best });
    }
    expect(slow).toEqual([]);
  });
});
