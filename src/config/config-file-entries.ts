import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { type ConfigEntry, parseKeySegments } from './config-entry.js';
import type { ConfigProblem } from './config-error.js';
import { PropertiesSyntaxError, parseProperties } from './parse-properties.js';

/** The formats a configuration file may have. */
export type ConfigFileFormat = 'properties' | 'yaml' | 'json';

/** The entries of one file, and the problems found while reading it. */
export interface FileEntries {
  entries: ConfigEntry[];
  problems: ConfigProblem[];
}

/** The format of a file from its name: `.properties`, `.yaml` / `.yml`, `.json`. */
export function configFileFormat(file: string): ConfigFileFormat | undefined {
  const lower = file.toLowerCase();
  if (lower.endsWith('.properties')) return 'properties';
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  if (lower.endsWith('.json')) return 'json';
  return undefined;
}

/**
 * The entries of a configuration text. `source` names it in errors (usually the file path).
 * YAML and JSON documents nest keys (`spring: { ai: { tools: … } } }`), dotted keys are split
 * (`spring.ai.tools: …`), and sequences are lists.
 */
export function configFileEntries(
  text: string,
  format: ConfigFileFormat,
  source: string,
): FileEntries {
  return format === 'properties'
    ? propertiesEntries(text, source)
    : documentEntries(text, format, source);
}

function propertiesEntries(text: string, file: string): FileEntries {
  const entries: ConfigEntry[] = [];
  const problems: ConfigProblem[] = [];
  let pairs: ReturnType<typeof parseProperties>;
  try {
    pairs = parseProperties(text);
  } catch (error) {
    if (!(error instanceof PropertiesSyntaxError)) throw error;
    problems.push({
      key: '(syntax)',
      origin: { kind: 'file', file, line: error.line },
      problem: error.message,
    });
    return { entries, problems };
  }
  for (const pair of pairs) {
    const origin = { kind: 'file', file, line: pair.line } as const;
    const parsed = parseKeySegments(pair.key);
    if (parsed === undefined) {
      problems.push({ key: pair.key, origin, problem: 'malformed key' });
      continue;
    }
    entries.push({ key: pair.key, ...parsed, value: pair.value, origin });
  }
  return { entries, problems };
}

function documentEntries(text: string, format: 'yaml' | 'json', file: string): FileEntries {
  const entries: ConfigEntry[] = [];
  const problems: ConfigProblem[] = [];
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const lineOf = (node: Node | null | undefined): number =>
    node?.range ? lineCounter.linePos(node.range[0]).line : 1;
  if (document.errors.length > 0) {
    for (const error of document.errors) {
      problems.push({
        key: '(syntax)',
        origin: { kind: 'file', file, line: error.linePos?.[0].line ?? 1 },
        problem: `${format === 'json' ? 'JSON' : 'YAML'} syntax error: ${error.message.split('\n')[0]}`,
      });
    }
    return { entries, problems };
  }
  const root = document.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) {
    return { entries, problems };
  }
  if (!isMap(root)) {
    problems.push({
      key: '(document)',
      origin: { kind: 'file', file, line: lineOf(root) },
      problem: 'the document must be a map of keys',
    });
    return { entries, problems };
  }
  const visit = (node: unknown, prefix: string[], keyText: string, line: number): void => {
    const origin = { kind: 'file', file, line } as const;
    if (isMap(node)) {
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const rawKey = isScalar(keyNode) ? String(keyNode.value) : undefined;
        const pairLine = lineOf(keyNode);
        const parsed = rawKey === undefined ? undefined : parseKeySegments(rawKey);
        const shownKey = keyText === '' ? (rawKey ?? '?') : `${keyText}.${rawKey ?? '?'}`;
        if (parsed === undefined || parsed.index !== undefined) {
          problems.push({
            key: shownKey,
            origin: { kind: 'file', file, line: pairLine },
            problem: 'malformed key',
          });
          continue;
        }
        visit(pair.value, [...prefix, ...parsed.segments], shownKey, pairLine);
      }
      return;
    }
    if (isSeq(node)) {
      const items = node.items.map((item) => (isScalar(item) ? item.value : item));
      entries.push({ key: keyText, segments: prefix, value: items, origin });
      return;
    }
    const value = isScalar(node) ? node.value : node;
    entries.push({ key: keyText, segments: prefix, value: value ?? '', origin });
  };
  visit(root, [], '', 1);
  return { entries, problems };
}
