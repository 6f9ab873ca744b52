import type { ToolInputIssue } from '../errors/index.js';

const FENCED = /^\s*```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)\n?\s*```\s*$/;

/** Parses an answer as JSON, tolerating one surrounding Markdown code fence. */
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
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false, issues: [{ path: '', message: 'the answer is not valid JSON' }] };
  }
}
