import { ToolloopError } from './toolloop-error.js';

/** One problem found in a tool's input, located by a JSON pointer (`''` is the whole input). */
export interface ToolInputIssue {
  path: string;
  message: string;
}

/** The model's arguments for a tool are not JSON or do not satisfy the tool's schema. */
export class InvalidToolInputError extends ToolloopError {
  readonly toolName: string;
  readonly issues: readonly ToolInputIssue[];

  constructor(options: { toolName: string; issues: readonly ToolInputIssue[]; message?: string }) {
    const summary = options.issues
      .map((issue) => `${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`)
      .join('; ');
    super({
      code: 'TOOL_INPUT_INVALID',
      message: options.message ?? `Invalid arguments for tool '${options.toolName}': ${summary}`,
    });
    this.toolName = options.toolName;
    this.issues = options.issues;
  }
}
