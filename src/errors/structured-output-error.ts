import type { ToolInputIssue } from './invalid-tool-input-error.js';
import { ToolloopError } from './toolloop-error.js';

/**
 * The model's structured answer still failed its schema after every retry. The message lists the
 * problems by JSON-pointer path; the answer itself is only on `rawText`.
 */
export class StructuredOutputError extends ToolloopError {
  /** The problems found in the last answer. */
  readonly issues: readonly ToolInputIssue[];
  /** The last answer's text as the model wrote it (`null` when it gave no text). */
  readonly rawText: string | null;
  /** How many answers were checked. */
  readonly attempts: number;

  constructor(options: {
    issues: readonly ToolInputIssue[];
    rawText: string | null;
    attempts: number;
  }) {
    const summary = options.issues
      .map((issue) => `${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`)
      .join('; ');
    super({
      code: 'STRUCTURED_OUTPUT_INVALID',
      message: `The model's answer did not match the output schema after ${options.attempts} attempt${options.attempts === 1 ? '' : 's'}: ${summary}`,
    });
    this.issues = options.issues;
    this.rawText = options.rawText;
    this.attempts = options.attempts;
  }
}
