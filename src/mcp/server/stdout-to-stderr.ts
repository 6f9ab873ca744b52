/** The protocol channel while stdout is redirected: the only writer that reaches the real stdout. */
export interface StdoutChannel {
  /** Writes to the real stdout; resolves once written or buffered (after `drain` when full). */
  write(text: string): Promise<void>;
  /** Ends this redirection (stdout is restored once every redirection has ended). */
  restore(): void;
}

let active = 0;
let original: typeof process.stdout.write | undefined;

/**
 * Sends everything this process writes to stdout (`console.log`, `console.info`,
 * `console.debug`, `console.dir`, `console.table`, `process.stdout.write`) to stderr instead,
 * while an MCP stdio connection uses stdout as its protocol channel: a tool's log line must not
 * reach the client as a message. Writes straight to file descriptor 1 (`fs.writeSync(1, …)`)
 * and child processes that inherit stdout are not covered.
 */
export function redirectStdoutToStderr(): StdoutChannel {
  const stdout = process.stdout;
  if (active === 0) {
    original = stdout.write;
    stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
      (process.stderr.write as (...args: unknown[]) => boolean)(
        chunk,
        ...rest,
      )) as typeof stdout.write;
  }
  active++;
  const write = original as typeof stdout.write;
  let restored = false;
  return {
    write: (text) =>
      new Promise((resolve) => {
        if (write.call(stdout, text)) resolve();
        else stdout.once('drain', () => resolve());
      }),
    restore() {
      if (restored) return;
      restored = true;
      active--;
      if (active === 0 && original !== undefined) {
        stdout.write = original;
        original = undefined;
      }
    },
  };
}
