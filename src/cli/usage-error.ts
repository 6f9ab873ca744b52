/** A command line the CLI cannot run: unknown command or option, missing argument. Exit code 2. */
export class UsageError extends Error {
  /** The help text of the command the user called, shown with the error. */
  readonly help: string | undefined;

  constructor(message: string, help?: string) {
    super(message);
    this.name = 'UsageError';
    this.help = help;
  }
}
