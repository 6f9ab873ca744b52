import { readFileSync } from 'node:fs';

/** The recorded provider wire data, kept in the repository (see its README for sources and licences). */
export const PROVIDER_FIXTURES = new URL('../../fixtures/provider-fixtures/', import.meta.url);

/** The bytes of one fixture file, e.g. `openai-chat-completions/x.bin.txt`. */
export function fixtureBytes(path: string): Buffer {
  return readFileSync(new URL(path, PROVIDER_FIXTURES));
}

/** The text of one fixture file. */
export function fixtureText(path: string): string {
  return fixtureBytes(path).toString('utf8');
}

/**
 * A VAI `*.chunks.txt` file (one JSON payload per line, SSE framing stripped by its recorder)
 * framed again as the provider sends it: OpenAI-style `data:` events ending with `[DONE]`,
 * Anthropic-style `event: <type>` + `data:` events, or plain `data:` events with no end marker
 * (`'data'`: what the Responses API and Gemini send).
 */
export function frameChunksAsSse(text: string, style: 'openai' | 'anthropic' | 'data'): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const events = lines.map((line) => {
    if (style !== 'anthropic') return `data: ${line}\n\n`;
    const type = (JSON.parse(line) as { type: string }).type;
    return `event: ${type}\ndata: ${line}\n\n`;
  });
  return events.join('') + (style === 'openai' ? 'data: [DONE]\n\n' : '');
}

/**
 * The responses of a Responses API `*.chunks.txt` file, one per step of the recorded agent loop
 * (a `response.created` line starts the next), each as the event lines of its stream.
 */
export function responsesStreamsOf(text: string): string[] {
  const streams: string[][] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.includes('"type":"response.created"') || streams.length === 0) streams.push([]);
    streams[streams.length - 1]!.push(line);
  }
  return streams.map((lines) => lines.join('\n'));
}
