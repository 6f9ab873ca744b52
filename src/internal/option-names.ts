import { InvalidArgumentError } from '../errors/index.js';
import { closestName } from './edit-distance.js';

/**
 * The option names of an options interface, checked by the compiler both ways: a name the
 * interface lacks does not compile, and neither does a list that leaves one of its names out (the
 * error names the missing one), so the runtime check below can never refuse a real option.
 *
 * `optionNames<ToolCallingManagerOptions>()('maxConcurrency', …)`
 */
export function optionNames<Options extends object>() {
  return <const Names extends readonly (keyof Options & string)[]>(
    ...names: Names &
      ([Exclude<keyof Options & string, Names[number]>] extends [never]
        ? unknown
        : { readonly missingOptionNames: Exclude<keyof Options & string, Names[number]> })
  ): ReadonlySet<string> => new Set<string>(names);
}

/**
 * Refuses an options object with a key its owner does not read (`kind` names what a key is), naming the key and the option it
 * most likely meant: in plain JavaScript, or with options spread from a config file, a misspelt
 * option would otherwise be ignored in silence (TypeScript flags it only in an object literal).
 */
export function rejectUnknownOptions(
  options: unknown,
  names: ReadonlySet<string>,
  owner: string,
  kind = 'option',
): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidArgumentError(
      kind === 'option' ? `${owner} options must be an object` : `${owner} must be an object`,
    );
  }
  for (const key of Object.keys(options)) {
    if (names.has(key)) continue;
    const meant = closestName(key, names);
    throw new InvalidArgumentError(
      `${owner} has no ${kind} '${key}'${meant === undefined ? '' : ` (did you mean '${meant}'?)`}`,
    );
  }
}
