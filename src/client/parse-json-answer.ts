import type { ToolInputIssue } from '../errors/index.js';

const FENCED = /^\s*```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)\n?\s*```\s*$/;

/**
 * Parses an answer as JSON, tolerating one surrounding Markdown code fence. A number too large for
 * a double (`1e999`, which `JSON.parse` turns into `Infinity` and JSON Schema's `number` accepts)
 * is an issue, so the caller never receives a non-finite number.
 */
export function parseJsonAnswer(
  text: string | null,
): { ok: true; value: unknown } | { ok: false; issues: ToolInputIssue[] } {
  if (text === null || text.trim() === '') {
    return {
      ok: false,
      issues: [{ path: '', message: 'the answer has no text; a JSON value is required' }],
    };
  }
  const body = FENCED.exec(text)?.[1] ?? text;
  let overflowed = false;
  let value: unknown;
  try {
    value = JSON.parse(body, (_key, parsed: unknown) => {
      if (typeof parsed === 'number' && !Number.isFinite(parsed)) overflowed = true;
      return parsed;
    });
  } catch {
    return { ok: false, issues: [{ path: '', message: 'the answer is not valid JSON' }] };
  }
  if (overflowed) {
    return {
      ok: false,
      issues: [
        { path: '', message: 'the answer holds a number too large: it overflows to Infinity' },
      ],
    };
  }
  return { ok: true, value };
}
