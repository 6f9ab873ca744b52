/** What a `toolloop` command exits with. */
export const EXIT_CODES = {
  /** The command did what it was asked. */
  ok: 0,
  /** It started but failed: a provider, a server, a database or a tool module failed. */
  runtimeError: 1,
  /** Nothing ran: unknown command or option, missing argument, invalid configuration. */
  usageError: 2,
} as const;
