import { type ChatResponse, hasToolCalls } from '../model/index.js';

/**
 * Decides whether the tool loop executes the tool calls of a model response. The default,
 * {@link defaultToolExecutionEligibilityChecker}, says yes whenever a generation requests a tool
 * call; a custom checker can suppress execution (the response then goes back to the caller with
 * its tool calls) or force it. The loop never asks about a `null` response: no model answer is
 * never a tool call.
 */
export type ToolExecutionEligibilityChecker = (response: ChatResponse | null) => boolean;

/** The default checker: true when any generation of the response requests a tool call. */
export const defaultToolExecutionEligibilityChecker: ToolExecutionEligibilityChecker = (response) =>
  hasToolCalls(response);
