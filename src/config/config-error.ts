import { ToolloopError } from '../errors/index.js';

/** Where a configuration value came from. */
export type ConfigOrigin =
  | { readonly kind: 'file'; readonly file: string; readonly line: number }
  | { readonly kind: 'env'; readonly variable: string }
  | { readonly kind: 'code'; readonly path: string };

/** One thing wrong with the configuration: the key, where it was set, and what is wrong. */
export interface ConfigProblem {
  /** The property key (`spring.ai.tools.limits.max-total-tool-calls`, `toolloop.model`). */
  readonly key: string;
  readonly origin: ConfigOrigin;
  /** What is wrong, without the value when the key holds a secret. */
  readonly problem: string;
}

/** `file:line`, `environment variable NAME` or `code: path`, as shown in messages. */
export function describeOrigin(origin: ConfigOrigin): string {
  switch (origin.kind) {
    case 'file':
      return `${origin.file}:${origin.line}`;
    case 'env':
      return `environment variable ${origin.variable}`;
    case 'code':
      return `code: ${origin.path}`;
  }
}

/**
 * The configuration cannot be used: unknown keys, values of the wrong type, values out of range,
 * unreadable files or syntax errors. Every problem found is listed (not only the first), each
 * naming its key and the file line or environment variable it came from. Secret values (API keys,
 * passwords) never appear in the message.
 */
export class ConfigError extends ToolloopError {
  /** Every problem found, in source order. */
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[], options: { cause?: unknown } = {}) {
    const lines = problems.map(
      (problem) => `${describeOrigin(problem.origin)}: ${problem.key}: ${problem.problem}`,
    );
    super({
      code: 'CONFIG_INVALID',
      message:
        lines.length === 1
          ? `Invalid configuration: ${lines[0]}`
          : `Invalid configuration (${lines.length} problems):\n  ${lines.join('\n  ')}`,
      cause: options.cause,
    });
    this.problems = Object.freeze([...problems]);
  }
}
