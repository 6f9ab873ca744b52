import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parsed options and positionals, or `help: true` when `--help` / `-h` was given. */
export interface CommandArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  help: boolean;
}

/**
 * Parses one command's arguments strictly (unknown options and missing values are
 * {@link UsageError}s carrying the command's help text). `--help` and `-h` are always accepted.
 */
export function parseCommandArgs(
  args: readonly string[],
  options: Options,
  help: string,
): CommandArgs {
  try {
    const parsed = parseArgs({
      args: [...args],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    const { help: wantsHelp, ...values } = parsed.values as Record<string, unknown>;
    return {
      values: values as CommandArgs['values'],
      positionals: parsed.positionals,
      help: wantsHelp === true,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError((error as Error).message, help);
    }
    throw error;
  }
}

/** A string option's values (`--config a --config b`), in order. */
export function stringList(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter(
    (item): item is string => typeof item === 'string',
  );
}
