import { secondBestScore } from '../internal/search-text/second-best-score.js';
import { splitIdentifier, words } from '../internal/search-text/words.js';
import type { JsonSchema } from '../tools/json-schema.js';
import type { ToolReference } from './tool-reference.js';

/**
 * Kinds of file a request can ask to be written and a tool can write, one bit each: "save it to
 * /root/ppt/apple.pptx" asks for `SLIDES`, a tool that creates PowerPoint presentations writes
 * `SLIDES`.
 */
export const FileFormat = {
  MARKDOWN: 1,
  WORD: 2,
  SLIDES: 4,
  SPREADSHEET: 8,
  PDF: 16,
  IMAGE: 32,
  HTML: 64,
  CODE: 128,
  TEXT: 256,
  DATA: 512,
  AUDIO: 1024,
  VIDEO: 2048,
} as const;

/** In a tool's output formats: it writes files of any format (a path and the content to write). */
export const ANY_FORMAT = 0x1000;
const FORMAT_BITS = 0x0fff;

/** The words of a space-separated list. */
function wordSet(list: string): ReadonlySet<string> {
  return new Set(list.split(' '));
}

const { MARKDOWN, WORD, SLIDES, SPREADSHEET, PDF, IMAGE, HTML, CODE, TEXT, DATA, AUDIO, VIDEO } =
  FileFormat;

/** File name extensions and the format they name. */
const EXTENSIONS: ReadonlyMap<string, number> = new Map(
  (
    [
      [MARKDOWN, ['md', 'markdown']],
      [WORD, ['doc', 'docx', 'odt', 'rtf']],
      [SLIDES, ['ppt', 'pptx', 'odp', 'key']],
      [SPREADSHEET, ['xls', 'xlsx', 'csv', 'tsv', 'ods']],
      [PDF, ['pdf']],
      [IMAGE, ['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'bmp', 'tif', 'tiff']],
      [HTML, ['html', 'htm']],
      [
        CODE,
        ['py', 'js', 'ts', 'jsx', 'tsx', 'mjs', 'java', 'c', 'cpp', 'h', 'go', 'rs', 'rb', 'sh'],
      ],
      [CODE, ['php', 'cs', 'swift', 'kt', 'sql']],
      [TEXT, ['txt', 'log']],
      [DATA, ['json', 'xml', 'yaml', 'yml', 'toml']],
      [AUDIO, ['mp3', 'wav', 'flac', 'ogg', 'm4a']],
      [VIDEO, ['mp4', 'mov', 'avi', 'mkv', 'webm']],
    ] as const
  ).flatMap(([format, names]) => names.map((name): [string, number] => [name, format])),
);

/**
 * Words that name a format ("a Markdown file", "a PowerPoint", "an Excel sheet"), the extensions
 * among them; short or common extensions (`c`, `go`, `key`, `log`, `doc`) only count as
 * extensions of a file name, never as words.
 */
const FORMAT_WORDS: ReadonlyMap<string, number> = new Map([
  ...[...EXTENSIONS].filter(([name]) => name.length > 2 && !['key', 'log', 'doc'].includes(name)),
  ...(
    [
      [SLIDES, ['powerpoint', 'presentation', 'presentations', 'slide', 'slides', 'slideshow']],
      [SPREADSHEET, ['excel', 'spreadsheet', 'spreadsheets', 'workbook', 'sheet', 'sheets']],
      [IMAGE, ['image', 'images', 'picture', 'pictures', 'photo', 'photos']],
      [HTML, ['webpage', 'webpages']],
      [CODE, ['script', 'scripts', 'python', 'javascript', 'typescript']],
      [AUDIO, ['audio']],
      [VIDEO, ['video', 'videos']],
    ] as const
  ).flatMap(([format, names]) => names.map((name): [string, number] => [name, format])),
  ['ppt', SLIDES],
  ['md', MARKDOWN],
]);

/** Two-word names of a format: "a Word document", "a web page", "a text file". */
const FORMAT_PHRASES: ReadonlyMap<string, number> = new Map([
  ['word document', WORD],
  ['word documents', WORD],
  ['word file', WORD],
  ['ms word', WORD],
  ['microsoft word', WORD],
  ['web page', HTML],
  ['web pages', HTML],
  ['text file', TEXT],
]);

/**
 * Verbs whose result is written: "save it in …", "write the report to …", "generate a report
 * at …", "a page saved at …". A file named after one of them, in the same sentence, is where the
 * result goes.
 */
const PRODUCING_VERBS: ReadonlySet<string> = wordSet(
  'save saves saved saving write writes wrote written writing store stores stored storing ' +
    'export exports exported exporting output outputs generate generates generated generating ' +
    'create creates created creating make makes made making draft drafts drafted produce ' +
    'produces produced put dump dumped download downloaded compose composed prepare prepared ' +
    'render rendered build built ' +
    // "Give me a report in …", "provide an example in …": the result the user asks for.
    'give gives provide provides',
);

/**
 * Verbs whose object is an existing file to read or change: "read the data under …", "the audio
 * file located at …", "convert /root/a.docx …", "insert clock.png". A file named after one of them
 * is an input, unless a preposition of goal ("to", "into", "as") introduces it.
 */
const CONSUMING_VERBS: ReadonlySet<string> = wordSet(
  'read reads reading open opens opened load loads loaded analyze analyse analyzes analyses ' +
    'analyzed analysed parse parses parsed extract extracts extracted view show check get list ' +
    'compare import imported upload uploaded insert inserted attach attached use using process ' +
    'scan inspect examine review located find search look tell describe explain count delete ' +
    'remove play listen watch',
);

/**
 * Verbs whose object is read and whose result is written: "convert /root/a.docx to PDF",
 * "summarize it in a PPT". What a preposition of goal introduces after them is a destination,
 * their object is not.
 */
const TRANSFORMING_VERBS: ReadonlySet<string> = wordSet(
  'convert converts converted translate translates translated transform transforms ' +
    'transformed turn turns turned merge merges merged combine combines combined summarize ' +
    'summarise summarizes summarises summarized summarised',
);

/**
 * Verbs of the lists above that are as often nouns ("the reference list", "a search"): one counts
 * as a verb only at the start of a clause, after a word of {@link VERB_OPENERS}.
 */
const NOUNS_TOO: ReadonlySet<string> = wordSet(
  'list process use view check search look count review play scan watch show draft output ' +
    'store dump export import upload download turn open load build record',
);
/** Words after which a verb starts a clause: "and save", "then list", "help me draft", "to use". */
const VERB_OPENERS: ReadonlySet<string> = wordSet(
  ', and then or please to me you us i we also first now just can will help',
);

/**
 * Prepositions of goal: what follows is where the result goes ("write to …", "save as …",
 * "convert into a Word document"), whatever the verb, unless the verb only reads.
 */
const GOAL_PREPOSITIONS: ReadonlySet<string> = new Set(['to', 'into', 'as', 'onto']);
/** Prepositions of source: what follows is read ("a summary of …", "the data from …"). */
const SOURCE_PREPOSITIONS: ReadonlySet<string> = new Set(['from', 'of']);
/** Words skipped between a preposition and what it introduces ("to a Markdown file"). */
const DETERMINERS: ReadonlySet<string> = wordSet(
  'a an the my your our their its this that one single new',
);

const FILE_TOKEN = /[/\\]|\.[A-Za-z0-9]{1,8}$/;
const SENTENCE_END = /^[.!?;]$/;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"`]+$/;

/**
 * The places where a request may name what it writes: a URL (read, never written here), a path
 * (`/root/markdown/a.md`, `~/a.txt`, `C:\out\a.csv`), a file name (`report.docx`), or a format
 * word or phrase ("Markdown", "a Word document"). Bounded repeats of classes that cannot overlap
 * their neighbours: linear time on any input.
 */
const CANDIDATE = new RegExp(
  [
    '\\b[a-z][\\w+.-]{0,15}:\\/\\/\\S{0,2048}',
    '(?<![\\w/\\\\.~:-])(?:~|\\.{1,2})?\\/[^\\s\'"`<>(){}\\[\\],;]{1,1024}',
    '\\b[A-Za-z]:\\\\[^\\s\'"`<>(){}\\[\\],;]{0,1024}',
    '\\b[\\w-]{1,255}\\.[A-Za-z0-9]{1,8}\\b(?!\\.\\w)',
    `\\b(?:${[...FORMAT_PHRASES.keys()].map((phrase) => phrase.replace(' ', '\\s+')).join('|')}|${[...FORMAT_WORDS.keys()].join('|')})\\b`,
  ].join('|'),
  'gi',
);
const URL_START = /^[a-z][\w+.-]*:\/\//i;
/** The tokens of a sentence before a candidate: paths and file names whole, words, commas. */
const CONTEXT_TOKEN = /[^\s,]*[/\\][^\s,]*|[\w-]+\.[A-Za-z0-9]{1,8}\b|[A-Za-z]+|,/g;
/** Only this many characters before a candidate are read for its verb and preposition. */
const MAX_CONTEXT = 300;

/**
 * The file formats ({@link FileFormat} bits) a request asks its result to be written in, `0` when
 * it names no destination (`textWords`: the text's lower-case words, when the caller has them): those of the extensions of its destination files and of format words
 * after a preposition of goal or "in" ("as Markdown", "into a Word document", "in a PPT"). A path
 * or file name is a destination when the nearest verb before it in its sentence produces
 * something ("generate a report in /root/a.md", "a page saved at /root/ai.html"), or when "to",
 * "into" or "as" introduces it after no verb that only reads; one after a verb that reads ("read
 * the data under /root/a.xlsx", "located at …"), or after "from" or "of", is an input.
 */
export function requestOutputFormats(
  text: string,
  textWords: readonly string[] = words(text),
): number {
  if (!mayNameFile(text, textWords)) return 0;
  let requested = 0;
  for (const match of text.matchAll(CANDIDATE)) {
    const found = match[0];
    if (URL_START.test(found)) continue;
    const file = FILE_TOKEN.test(found);
    const formats = file
      ? extensionFormat(found.replace(TRAILING_PUNCTUATION, ''))
      : (FORMAT_PHRASES.get(found.toLowerCase().replace(/\s+/, ' ')) ??
        FORMAT_WORDS.get(found.toLowerCase()) ??
        0);
    // A destination of no known format (a folder) says nothing of which tools write it.
    if (formats === 0 || (requested & formats) === formats) continue;
    const context = sentenceBefore(text, match.index).match(CONTEXT_TOKEN) ?? [];
    // A format word says what is written only after a preposition of goal or "in" ("save it as
    // Markdown", "write it in Markdown"), not as a noun's modifier ("a PDF reader").
    const before = prepositionBefore(context, context.length) ?? '';
    if (!file && !(GOAL_PREPOSITIONS.has(before) || before === 'in')) continue;
    if (isDestination(context, context.length, !file)) requested |= formats;
  }
  return requested;
}

const FILE_HINT = /[/\\]|\w\.[A-Za-z0-9]/;
/** Words that start a format's name: the format words, and "word", "web" … of the phrases. */
const FORMAT_HINTS: ReadonlySet<string> = new Set([
  ...FORMAT_WORDS.keys(),
  ...[...FORMAT_PHRASES.keys()].map((phrase) => phrase.split(' ')[0] as string),
]);

/**
 * Whether a text may name a file or format at all (a slash, a dot inside a word, a format word
 * among its lower-case words): most requests do not, and this says so without scanning the text
 * for {@link CANDIDATE}s.
 */
function mayNameFile(text: string, textWords: readonly string[]): boolean {
  return FILE_HINT.test(text) || textWords.some((word) => FORMAT_HINTS.has(word));
}

/** The text of the sentence before `end` (at most {@link MAX_CONTEXT} characters of it). */
function sentenceBefore(text: string, end: number): string {
  const from = Math.max(0, end - MAX_CONTEXT);
  for (let i = end - 1; i >= from; i--) {
    const char = text[i] as string;
    if (char === '\n') return text.slice(i + 1, end);
    if ('.!?;'.includes(char) && (i + 1 === end || /\s/.test(text[i + 1] as string))) {
      return text.slice(i + 1, end);
    }
  }
  return text.slice(from, end);
}

/** The format an extension names, of the last extension of a path or file name; else `0`. */
function extensionFormat(file: string): number {
  const dot = file.lastIndexOf('.');
  if (dot < 0 || /[/\\]/.test(file.slice(dot))) return 0;
  return EXTENSIONS.get(file.slice(dot + 1).toLowerCase()) ?? 0;
}

/** The word before the token at `at`, determiners skipped, lower case. */
function prepositionBefore(tokens: readonly string[], at: number): string | undefined {
  for (let i = at - 1; i >= 0; i--) {
    const word = (tokens[i] as string).toLowerCase();
    if (!DETERMINERS.has(word)) return word;
  }
  return undefined;
}

/**
 * Whether the file or format word at `at` is where a result goes: after "from" or "of" never;
 * else as the nearest verb before it in its sentence says (one that produces: yes; one that
 * transforms, "convert", "summarize": only after a preposition of goal, or "in" before a format
 * word, "summarize it in a PPT"; one that reads: no); with no such verb, after a preposition of
 * goal only.
 */
function isDestination(tokens: readonly string[], at: number, formatWord: boolean): boolean {
  const before = prepositionBefore(tokens, at) ?? '';
  if (SOURCE_PREPOSITIONS.has(before)) return false;
  const goal = GOAL_PREPOSITIONS.has(before);
  for (let i = at - 1; i >= 0; i--) {
    const word = (tokens[i] as string).toLowerCase();
    if (SENTENCE_END.test(word)) break;
    if (NOUNS_TOO.has(word) && !opensClause(tokens[i - 1])) continue;
    if (PRODUCING_VERBS.has(word)) return true;
    if (TRANSFORMING_VERBS.has(word)) return goal || (formatWord && before === 'in');
    if (CONSUMING_VERBS.has(word)) return false;
  }
  return goal;
}

/** Whether a verb after this token (`undefined`: none) starts a clause. */
function opensClause(previous: string | undefined): boolean {
  return (
    previous === undefined ||
    SENTENCE_END.test(previous) ||
    VERB_OPENERS.has(previous.toLowerCase())
  );
}

/** Verbs of a tool's name or description that say it writes something. */
const TOOL_PRODUCING_VERBS: ReadonlySet<string> = wordSet(
  'write writes save saves create creates export exports generate generates make makes dump ' +
    'dumps download downloads convert converts render renders draft compose produce produces',
);

/** The first word of a description, read without splitting the whole text into words. */
const FIRST_WORD = /[A-Za-z]+/;

/** Parameter names that take a file's path or name (a folder alone names no file). */
const PATH_PARAMETER_WORDS: ReadonlySet<string> = wordSet('path file filename filepath');
/** Parameter names that take what is written. */
const CONTENT_PARAMETER_WORDS: ReadonlySet<string> = wordSet('content contents text body data');

/**
 * The file formats a tool writes ({@link FileFormat} bits, {@link ANY_FORMAT} for a tool that
 * takes a path and the content to write), `0` for a tool that writes no file. A tool writes files
 * when a verb of its name or the first word of its description produces something ("write",
 * "save", "create", "export", "convert" …) and it takes a path or file name or names a format;
 * its formats are those its name and description name ("Create a new PowerPoint presentation",
 * `save_as_pdf`), or, for a converter named `<a>_to_<b>`, those after "to".
 */
export function toolOutputFormats(reference: ToolReference): number {
  const nameWords = splitIdentifier(reference.toolName);
  // A converter (`docx_to_pdf`) writes what its name says after "to", not what it reads.
  const to = nameWords.lastIndexOf('to');
  const nameFormats = namedFormats(to > 0 ? nameWords.slice(to + 1) : nameWords);
  const nameProduces = nameWords.some((word) => TOOL_PRODUCING_VERBS.has(word));
  if (to > 0 && (nameFormats !== 0 || !nameProduces)) return nameFormats;
  const firstWord = FIRST_WORD.exec(reference.summary)?.[0].toLowerCase() ?? '';
  if (!nameProduces && !TOOL_PRODUCING_VERBS.has(firstWord)) return 0;
  const descriptionWords = words(reference.summary);
  const { takesPath, takesContent } = parameterRoles(reference.inputSchema);
  // Without a path to write to, a format in the name (`create_presentation`) or a "<format> file"
  // of the description says the tool makes files of it; other words can name formats in passing.
  if (!takesPath) return nameFormats | formatsOfFiles(descriptionWords);
  const formats = nameFormats | namedFormats(descriptionWords);
  // A tool that takes a path and the content, and names no format, writes any file.
  return formats === 0 && takesContent ? ANY_FORMAT : formats;
}

/** The formats named just before "file" or "files" ("save it to a WAV file"). */
function formatsOfFiles(textWords: readonly string[]): number {
  let formats = 0;
  for (let i = 1; i < textWords.length; i++) {
    const word = textWords[i] as string;
    if (word === 'file' || word === 'files') {
      formats |= FORMAT_WORDS.get(textWords[i - 1] as string) ?? 0;
    }
  }
  return formats & FORMAT_BITS;
}

/** The formats a text's words name. */
function namedFormats(textWords: readonly string[]): number {
  let formats = 0;
  for (let i = 0; i < textWords.length; i++) {
    const word = textWords[i] as string;
    formats |=
      FORMAT_PHRASES.get(`${word} ${textWords[i + 1] ?? ''}`) ?? FORMAT_WORDS.get(word) ?? 0;
  }
  return formats & FORMAT_BITS;
}

/** Whether a schema's top-level parameters take a file's path and the content to write. */
function parameterRoles(schema: JsonSchema | undefined): {
  takesPath: boolean;
  takesContent: boolean;
} {
  let takesPath = false;
  let takesContent = false;
  for (const name of Object.keys(schema?.properties ?? {})) {
    const nameWords = splitIdentifier(name);
    if (nameWords.some((word) => PATH_PARAMETER_WORDS.has(word))) takesPath = true;
    if (nameWords.some((word) => CONTENT_PARAMETER_WORDS.has(word))) takesContent = true;
  }
  return { takesPath, takesContent };
}

/**
 * A tool that writes the requested format scores this share of the second-best hit's score
 * more. Chosen on the tuning halves.
 */
const OUTPUT_FILE_BONUS = 1;

/**
 * For a request that names where its result must be written ({@link requestOutputFormats}), adds
 * to the score of each tool that writes files of a requested format, or of any format,
 * {@link OUTPUT_FILE_BONUS} times the second-best score (among the slots `accepted` keeps; 1 when
 * no score is positive): the request needs such a tool whatever
 * else it needs, and its other words say little about it ("a deep report of bitcoin … save it
 * in /root/markdown/bitcoin.md" needs a file writer).
 */
export function addOutputFileBonus(
  scores: Float64Array,
  toolFormats: Uint16Array,
  requestFormats: number,
  accepted?: Uint8Array,
): void {
  if (requestFormats === 0) return;
  const bonus = OUTPUT_FILE_BONUS * (secondBestScore(scores, accepted) || 1);
  for (let slot = 0; slot < scores.length; slot++) {
    const formats = toolFormats[slot] as number;
    if (formats === 0) continue;
    if ((formats & (requestFormats | ANY_FORMAT)) !== 0) {
      scores[slot] = (scores[slot] as number) + bonus;
    }
  }
}
