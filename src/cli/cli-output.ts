/** Where a command writes: standard output for results, standard error for messages. */
export interface CliOutput {
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
}
