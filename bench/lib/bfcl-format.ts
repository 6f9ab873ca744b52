import { existsSync, readFileSync } from 'node:fs';

/**
 * The file formats of the tool-retrieval data: JSON Lines, and BFCL's function and question
 * dialect. Shared by the lexical and the semantic retrieval benchmarks' loaders.
 */

/** A function as BFCL writes it. */
export interface BfclFunction {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

/** The objects of a JSON Lines file; a missing file is an error naming it. */
export function readJsonLines(path: string): Record<string, unknown>[] {
  if (!existsSync(path)) throw new Error(`tool-retrieval data missing: ${path}`);
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** BFCL's schema dialect (`dict`, `float`, `tuple`, `any`) mapped to JSON Schema type names. */
export function bfclSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(bfclSchema);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' && typeof value === 'string') {
      out.type = { dict: 'object', float: 'number', tuple: 'array', any: 'string' }[value] ?? value;
    } else out[key] = bfclSchema(value);
  }
  return out;
}

/** The text of a BFCL question: the user messages of its first turn, joined. */
export function bfclQueryText(entry: Record<string, unknown>): string {
  const turns = entry.question as { role: string; content: string }[][];
  return (turns[0] ?? [])
    .filter((message) => message.role === 'user')
    .map((message) => message.content)
    .join('\n');
}
