import { InvalidArgumentError } from '../errors/index.js';
import type { Message, ToolCall } from '../messages/index.js';

/** What happens when a call breaks a limit. */
export type ToolCallLimitBehavior = 'THROW' | 'RETURN_ERROR_RESPONSE';

/** A cap on calls: a positive integer, or `'unlimited'`. */
export type ToolCallLimit = number | 'unlimited';

/** Default cap on the calls of one tool within a turn. */
export const DEFAULT_MAX_CALLS_PER_TOOL = 40;
/** Default cap on all tool calls within a turn. */
export const DEFAULT_MAX_TOTAL_TOOL_CALLS = 150;

/** Per-turn tool-call limits, as given by the user. A turn starts at the last user message. */
export interface ToolCallLimitsOptions {
  /** Cap on the calls of each tool that has no override. Default 40. */
  maxCallsPerTool?: ToolCallLimit;
  /** Per-tool caps that replace `maxCallsPerTool`; `'unlimited'` removes the tool's cap. Default none. */
  perTool?: Readonly<Record<string, ToolCallLimit>>;
  /**
   * Tools with no per-tool cap; they still count toward the total. A tool may not be both excluded
   * and given a numeric `perTool` cap (rejected, instead of Spring AI's "last call wins").
   * Default none.
   */
  excludedTools?: readonly string[];
  /** Cap on all calls of the turn. Default 150. */
  maxTotalToolCalls?: ToolCallLimit;
  /** `'THROW'` ends the turn with a `ToolCallLimitExceededError`; the other answers the model. Default `'THROW'`. */
  onLimitExceeded?: ToolCallLimitBehavior;
}

/** Validated limits; `Infinity` stands for unlimited. */
export interface ToolCallLimits {
  readonly maxCallsPerTool: number;
  readonly perTool: ReadonlyMap<string, number>;
  readonly excludedTools: ReadonlySet<string>;
  readonly maxTotalToolCalls: number;
  readonly onLimitExceeded: ToolCallLimitBehavior;
}

/** Call counts of the current turn, by tool name, before a batch runs. */
export interface ToolCallCounts {
  readonly byTool: Map<string, number>;
  total: number;
}

/** A call that broke a limit. */
export interface ToolCallLimitBreach {
  /** The tool whose own cap was broken, or `null` when the total was. */
  readonly toolName: string | null;
  readonly limit: number;
  readonly scope: 'per-tool' | 'total';
  /** The text the model receives for the rejected call. */
  readonly message: string;
}

/**
 * Validates limit options and fills in the defaults. Throws {@link InvalidArgumentError} with Spring
 * AI's texts (`"maxCallsPerTool must be greater than 0"`, …).
 */
export function resolveToolCallLimits(options: ToolCallLimitsOptions = {}): ToolCallLimits {
  const maxCallsPerTool = checkLimit(
    options.maxCallsPerTool ?? DEFAULT_MAX_CALLS_PER_TOOL,
    'maxCallsPerTool',
  );
  const maxTotalToolCalls = checkLimit(
    options.maxTotalToolCalls ?? DEFAULT_MAX_TOTAL_TOOL_CALLS,
    'maxTotalToolCalls',
  );
  const onLimitExceeded = options.onLimitExceeded ?? 'THROW';
  if (onLimitExceeded !== 'THROW' && onLimitExceeded !== 'RETURN_ERROR_RESPONSE') {
    throw new InvalidArgumentError("onLimitExceeded must be 'THROW' or 'RETURN_ERROR_RESPONSE'");
  }
  const excludedTools = new Set<string>();
  for (const name of options.excludedTools ?? []) {
    checkToolName(name);
    excludedTools.add(name);
  }
  const perTool = new Map<string, number>();
  for (const [name, limit] of Object.entries(options.perTool ?? {})) {
    checkToolName(name);
    const checked = checkLimit(limit, 'maxCallsPerTool');
    if (excludedTools.has(name) && checked !== Number.POSITIVE_INFINITY) {
      throw new InvalidArgumentError(
        `Tool '${name}' is both excluded from the per-tool limit and given its own limit; choose one`,
      );
    }
    perTool.set(name, checked);
  }
  return { maxCallsPerTool, perTool, excludedTools, maxTotalToolCalls, onLimitExceeded };
}

function checkLimit(limit: ToolCallLimit, name: string): number {
  if (limit === 'unlimited') return Number.POSITIVE_INFINITY;
  if (typeof limit !== 'number' || Number.isNaN(limit)) {
    throw new InvalidArgumentError(`${name} must be a positive integer or 'unlimited'`);
  }
  if (limit <= 0) throw new InvalidArgumentError(`${name} must be greater than 0`);
  if (!Number.isInteger(limit)) {
    throw new InvalidArgumentError(`${name} must be a positive integer or 'unlimited'`);
  }
  return limit;
}

function checkToolName(name: unknown): void {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new InvalidArgumentError('toolName cannot be null or empty');
  }
}

/**
 * Counts the tool responses of the current turn: the messages from the last user message on
 * (inclusive), or all of them when there is none; each response counts for its tool name. Scans
 * backwards and stops at the turn's start, so the cost is the turn's length, not the history's.
 */
export function countPriorToolCalls(messages: readonly Message[]): ToolCallCounts {
  const byTool = new Map<string, number>();
  let total = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role === 'user') break;
    if (message.role !== 'tool') continue;
    for (const response of message.responses) {
      byTool.set(response.name, (byTool.get(response.name) ?? 0) + 1);
      total++;
    }
  }
  return { byTool, total };
}

/**
 * Decides, in call order, which calls of a batch break a limit (Spring AI's algorithm): each
 * call first increments its tool's count and the total, even if it is rejected later; then the
 * per-tool cap is checked (skipped for excluded tools), then the total. `counts` is updated in
 * place. Returns one entry per call: the breach, or `undefined`.
 */
export function decideToolCallLimits(
  calls: readonly ToolCall[],
  counts: ToolCallCounts,
  limits: ToolCallLimits,
): Array<ToolCallLimitBreach | undefined> {
  const decisions: Array<ToolCallLimitBreach | undefined> = new Array(calls.length);
  for (let index = 0; index < calls.length; index++) {
    const name = (calls[index] as ToolCall).name;
    const count = (counts.byTool.get(name) ?? 0) + 1;
    counts.byTool.set(name, count);
    counts.total++;
    decisions[index] = checkCall(name, count, counts.total, limits);
  }
  return decisions;
}

/**
 * The limit decisions of a batch ({@link decideToolCallLimits} on the turn's prior calls), or
 * `undefined` when no call of it can break a limit: the turn's calls with this batch stay within
 * the total and within the smallest per-tool cap (a tool's count never exceeds the total). Most
 * batches end there, without the per-tool counts (a map per batch, 0.3 KB per loop-overhead
 * conversation, measured with bench/allocation-profile.ts).
 */
export function findToolCallLimitBreaches(
  calls: readonly ToolCall[],
  messages: readonly Message[],
  limits: ToolCallLimits,
): Array<ToolCallLimitBreach | undefined> | undefined {
  const total = countPriorTotal(messages) + calls.length;
  if (total <= limits.maxTotalToolCalls && total <= smallestPerToolCap(limits)) return undefined;
  return decideToolCallLimits(calls, countPriorToolCalls(messages), limits);
}

/** The total of {@link countPriorToolCalls}, without the per-tool counts. */
function countPriorTotal(messages: readonly Message[]): number {
  let total = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role === 'user') break;
    if (message.role === 'tool') total += message.responses.length;
  }
  return total;
}

function smallestPerToolCap(limits: ToolCallLimits): number {
  let smallest = limits.maxCallsPerTool;
  if (limits.perTool.size > 0) {
    for (const cap of limits.perTool.values()) if (cap < smallest) smallest = cap;
  }
  return smallest;
}

function checkCall(
  name: string,
  count: number,
  total: number,
  limits: ToolCallLimits,
): ToolCallLimitBreach | undefined {
  if (!limits.excludedTools.has(name)) {
    const max = limits.perTool.get(name) ?? limits.maxCallsPerTool;
    if (count > max) {
      return {
        toolName: name,
        limit: max,
        scope: 'per-tool',
        message: `Tool call limit (${max}) exceeded for tool '${name}'. No further calls to this tool are allowed in this turn.`,
      };
    }
  }
  if (total > limits.maxTotalToolCalls) {
    return {
      toolName: null,
      limit: limits.maxTotalToolCalls,
      scope: 'total',
      message: `Total tool call limit (${limits.maxTotalToolCalls}) exceeded for this turn. No further tool calls are allowed.`,
    };
  }
  return undefined;
}
