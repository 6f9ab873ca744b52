/** Text of a tool result. */
export interface TextPart {
  type: 'text';
  text: string;
}

/**
 * Where the bytes of a media part are: inline as base64 `data`, or at a `url` (`https:` or a
 * `data:` URL); exactly one of the two. `uri` names where the content came from (an MCP
 * resource's URI); it is kept, never fetched.
 */
export interface MediaPartSource {
  /** IANA media type, e.g. `image/png`; its top-level type matches the part's type. */
  mediaType: string;
  /** The bytes, base64-encoded (no `data:` prefix, no line breaks). */
  data?: string;
  /** An `https:` or `data:` URL of the content, for providers that fetch it. */
  url?: string;
  /** The content's own identifier (an MCP resource URI); informative only. */
  uri?: string;
}

/** An image (`image/*`) a tool returned. */
export interface ImagePart extends MediaPartSource {
  type: 'image';
}

/** Audio (`audio/*`) a tool returned. */
export interface AudioPart extends MediaPartSource {
  type: 'audio';
}

/**
 * A file or document a tool returned (a PDF, a spreadsheet, a text file): its bytes as `data` or
 * `url`, or, for a text document, its `text` (exactly one of the three).
 */
export interface FilePart extends MediaPartSource {
  type: 'file';
  /** The content of a text document (`text/*`, JSON, XML), instead of `data` or `url`. */
  text?: string;
  /** A file name to show the model, e.g. `report.pdf`. */
  filename?: string;
}

/**
 * A link to a resource the tool did not inline (an MCP `resource_link`): the model reads its
 * description; nothing is fetched.
 */
export interface ResourceLinkPart {
  type: 'resource-link';
  uri: string;
  name?: string;
  title?: string;
  description?: string;
  mediaType?: string;
}

/**
 * One piece of a tool result: text, an image, audio, a file, or a link to a resource. Plain JSON
 * data (bytes as base64), so a message holding parts round-trips `JSON.stringify` and any store.
 */
export type ToolResultPart = TextPart | ImagePart | AudioPart | FilePart | ResourceLinkPart;

/** The type tags of {@link ToolResultPart}. */
export type ToolResultPartType = ToolResultPart['type'];

/** What a log line, an event or a span tells about a part: its type and size, never its bytes. */
export interface ToolResultPartSummary {
  type: ToolResultPartType;
  mediaType?: string;
  /** Bytes held inline (base64 decoded, a `data:` URL, a file's text); 0 for a remote URL. */
  bytes: number;
  /** `'url'` for content a provider fetches from an `https:` URL. */
  source?: 'inline' | 'url';
}

// IANA's registered top-level media types: anything else is an unknown media type.
const TOP_LEVEL_TYPES: ReadonlySet<string> = new Set([
  'application',
  'audio',
  'example',
  'font',
  'haptics',
  'image',
  'message',
  'model',
  'multipart',
  'text',
  'video',
]);
const MEDIA_TYPE = /^([a-z]+)\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(\s*;.*)?$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DATA_URL = /^data:([^,]*?)(;base64)?,/i;
const PART_TYPES: ReadonlySet<string> = new Set([
  'text',
  'image',
  'audio',
  'file',
  'resource-link',
]);

/**
 * Why `value` is not a valid {@link ToolResultPart}, or `undefined` when it is one. Checked: a
 * known type; a media type that is well formed, of a registered top-level type and of the part's
 * family (`image/*` for an image, `audio/*` for audio); exactly one source; base64 `data`; a URL
 * with the `https:` or `data:` scheme only. The reason names fields and the media type, never
 * the content, so it can go into an error message for the model or the caller.
 */
export function toolResultPartProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'it is not an object';
  }
  const part = value as Record<string, unknown>;
  const type = part.type;
  if (typeof type !== 'string' || !PART_TYPES.has(type)) {
    return `its type ${typeof type === 'string' ? `'${clip(type)}' ` : ''}is not one of text, image, audio, file, resource-link`;
  }
  switch (type) {
    case 'text':
      return typeof part.text === 'string' ? undefined : 'its text is not a string';
    case 'resource-link':
      if (typeof part.uri !== 'string' || part.uri === '') return 'its uri is not a string';
      for (const key of ['name', 'title', 'description', 'mediaType'] as const) {
        if (part[key] !== undefined && typeof part[key] !== 'string') {
          return `its ${key} is not a string`;
        }
      }
      return undefined;
    default:
      return mediaProblem(part, type);
  }
}

function mediaProblem(part: Record<string, unknown>, type: string): string | undefined {
  const mediaType = part.mediaType;
  if (typeof mediaType !== 'string') return 'its mediaType is not a string';
  const match = MEDIA_TYPE.exec(mediaType);
  const family = match?.[1]?.toLowerCase();
  if (family === undefined || !TOP_LEVEL_TYPES.has(family)) {
    return `its media type '${clip(mediaType)}' is not a known media type`;
  }
  if ((type === 'image' || type === 'audio') && family !== type) {
    return `its media type '${clip(mediaType)}' is not an ${type}/* type`;
  }
  for (const key of ['uri', 'filename'] as const) {
    if (part[key] !== undefined && typeof part[key] !== 'string')
      return `its ${key} is not a string`;
  }
  const sources = ['data', 'url', ...(type === 'file' ? ['text'] : [])].filter(
    (key) => part[key] !== undefined,
  );
  if (sources.length !== 1) {
    return type === 'file'
      ? 'it needs exactly one of data (base64), url or text'
      : 'it needs exactly one of data (base64) or url';
  }
  const source = sources[0] as string;
  const content = part[source];
  if (typeof content !== 'string') return `its ${source} is not a string`;
  if (source === 'data' && !isBase64(content)) return 'its data is not base64 text';
  if (source === 'url') return urlProblem(content);
  return undefined;
}

function urlProblem(url: string): string | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'data') {
    return DATA_URL.test(url) ? undefined : 'its url is not a valid data: URL';
  }
  if (scheme !== 'https') {
    return `its url has the scheme '${scheme === undefined ? '' : clip(scheme)}:', and only https: or data: URLs are allowed`;
  }
  try {
    new URL(url);
    return undefined;
  } catch {
    return 'its url is not a valid URL';
  }
}

function isBase64(text: string): boolean {
  return text.length % 4 === 0 && BASE64.test(text);
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** The number of bytes a base64 text decodes to. */
export function base64ByteLength(base64: string): number {
  let padding = 0;
  if (base64.endsWith('==')) padding = 2;
  else if (base64.endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/**
 * The bytes a part holds inline: its base64 `data` decoded, a `data:` URL's payload, a file's
 * `text` in UTF-8, a text part's text; 0 for a remote URL or a resource link.
 */
export function toolResultPartBytes(part: ToolResultPart): number {
  switch (part.type) {
    case 'text':
      return Buffer.byteLength(part.text, 'utf8');
    case 'resource-link':
      return 0;
    default: {
      if (typeof part.data === 'string') return base64ByteLength(part.data);
      if (part.type === 'file' && typeof part.text === 'string') {
        return Buffer.byteLength(part.text, 'utf8');
      }
      const url = part.url ?? '';
      const dataUrl = DATA_URL.exec(url);
      if (dataUrl === null) return 0;
      const payload = url.slice(dataUrl[0].length);
      return dataUrl[2] === undefined ? payload.length : base64ByteLength(payload);
    }
  }
}

/** Type, media type and size of each part (see {@link ToolResultPartSummary}). */
export function summarizeToolResultParts(
  parts: readonly ToolResultPart[],
): ToolResultPartSummary[] {
  return parts.map((part) => {
    const summary: ToolResultPartSummary = { type: part.type, bytes: toolResultPartBytes(part) };
    if (part.type !== 'text' && part.mediaType !== undefined) summary.mediaType = part.mediaType;
    if (part.type === 'image' || part.type === 'audio' || part.type === 'file') {
      summary.source = part.url !== undefined && !part.url.startsWith('data:') ? 'url' : 'inline';
    }
    return summary;
  });
}

/** A size for people: `812 B`, `48.2 KB`, `3.1 MB`. */
export function formatByteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A one-line description of a part that is not text, for the text form of a result and for
 * providers that cannot take the part: `[image image/png, 48.2 KB]`, `[file report.pdf
 * application/pdf, 1.2 MB]`, `[image image/png at https://…]`, `[resource link file:///a.txt
 * (a.txt): description]`.
 */
export function describeToolResultPart(part: ToolResultPart): string {
  if (part.type === 'text') return part.text;
  if (part.type === 'resource-link') {
    const label = part.title ?? part.name;
    return `[resource link ${part.uri}${label === undefined ? '' : ` (${label})`}${part.description === undefined ? '' : `: ${part.description}`}]`;
  }
  const name = part.type === 'file' && part.filename !== undefined ? ` ${part.filename}` : '';
  const remote = part.url !== undefined && !part.url.startsWith('data:');
  const where = remote ? ` at ${part.url}` : `, ${formatByteSize(toolResultPartBytes(part))}`;
  return `[${part.type}${name} ${part.mediaType}${where}]`;
}

/**
 * The text form of a result's parts (what `ToolResponse.responseData` holds): text parts as they
 * are and a one-line description of every other part (see {@link describeToolResultPart}), joined
 * by line breaks. A file given as `text` is described, not inlined.
 */
export function toolResultPartsText(parts: readonly ToolResultPart[]): string {
  return parts.map(describeToolResultPart).join('\n');
}
