import type { Stream } from 'node:stream';

/**
 * Keeps the last `maxChars` characters a child process wrote to stderr, so that an error about
 * the process can say what it printed before it died; optionally forwards every chunk.
 */
export class StderrTail {
  readonly #maxChars: number;
  readonly #forward: ((text: string) => void) | undefined;
  #text = '';
  #ended: Promise<void> = Promise.resolve();

  constructor(maxChars: number, forward?: (text: string) => void) {
    this.#maxChars = maxChars;
    this.#forward = forward;
  }

  /** Starts reading `stream` (a child's piped stderr). */
  attach(stream: Stream | null): void {
    if (stream === null) return;
    this.#ended = new Promise((resolve) => {
      stream.on('data', (chunk: Buffer | string) => this.append(chunk.toString()));
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', () => resolve());
    });
  }

  append(text: string): void {
    this.#forward?.(text);
    this.#text = (this.#text + text).slice(-this.#maxChars);
  }

  /** What was kept, trimmed. */
  get text(): string {
    return this.#text.trim();
  }

  /** Waits until the stream ended (the child's last words arrived), at most `maxWaitMs`. */
  async drained(maxWaitMs: number): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#ended,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, maxWaitMs);
      }),
    ]);
    clearTimeout(timer);
    return this.text;
  }
}
