import { InvalidArgumentError } from '../errors/index.js';

/** Checks a table or schema name given in options and returns it double-quoted for SQL. */
export function quoteIdentifier(name: string, what: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,47}$/.test(name)) {
    throw new InvalidArgumentError(
      `${what} must be letters, digits and underscores, starting with a letter or underscore (at most 48)`,
    );
  }
  return `"${name}"`;
}
