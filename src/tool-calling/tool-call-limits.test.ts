import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/index.js';
import type { Message, ToolResponse } from '../messages/index.js';
import { toolCall, toolResponse, toolResponseMessage, userMessage } from '../messages/index.js';
import {
  countPriorToolCalls,
  DEFAULT_MAX_CALLS_PER_TOOL,
  DEFAULT_MAX_TOTAL_TOOL_CALLS,
  decideToolCallLimits,
  findToolCallLimitBreaches,
  resolveToolCallLimits,
} from './tool-call-limits.js';

function responses(name: string, count: number): ToolResponse[] {
  return Array.from({ length: count }, (_, index) => toolResponse(`${name}-${index}`, name, 'ok'));
}

describe('resolveToolCallLimits', () => {
  it('applies the reference defaults: 40 per tool, 150 in total, THROW', () => {
    const limits = resolveToolCallLimits();
    expect(limits.maxCallsPerTool).toBe(DEFAULT_MAX_CALLS_PER_TOOL);
    expect(DEFAULT_MAX_CALLS_PER_TOOL).toBe(40);
    expect(limits.maxTotalToolCalls).toBe(DEFAULT_MAX_TOTAL_TOOL_CALLS);
    expect(DEFAULT_MAX_TOTAL_TOOL_CALLS).toBe(150);
    expect(limits.onLimitExceeded).toBe('THROW');
    expect(limits.perTool.size).toBe(0);
    expect(limits.excludedTools.size).toBe(0);
  });

  it('maps unlimited to Infinity', () => {
    const limits = resolveToolCallLimits({
      maxCallsPerTool: 'unlimited',
      maxTotalToolCalls: 'unlimited',
      perTool: { search: 'unlimited' },
    });
    expect(limits.maxCallsPerTool).toBe(Number.POSITIVE_INFINITY);
    expect(limits.maxTotalToolCalls).toBe(Number.POSITIVE_INFINITY);
    expect(limits.perTool.get('search')).toBe(Number.POSITIVE_INFINITY);
  });

  it.each([0, -1])('rejects maxCallsPerTool %d with the reference text', (value) => {
    expect(() => resolveToolCallLimits({ maxCallsPerTool: value })).toThrow(
      new InvalidArgumentError('maxCallsPerTool must be greater than 0'),
    );
    expect(() => resolveToolCallLimits({ perTool: { toolA: value } })).toThrow(
      'maxCallsPerTool must be greater than 0',
    );
  });

  it.each([0, -5])('rejects maxTotalToolCalls %d with the reference text', (value) => {
    expect(() => resolveToolCallLimits({ maxTotalToolCalls: value })).toThrow(
      'maxTotalToolCalls must be greater than 0',
    );
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'rejects the non-integer limit %d',
    (value) => {
      expect(() => resolveToolCallLimits({ maxCallsPerTool: value })).toThrow(
        "maxCallsPerTool must be a positive integer or 'unlimited'",
      );
    },
  );

  it('rejects empty tool names in overrides and exclusions', () => {
    expect(() => resolveToolCallLimits({ perTool: { '': 2 } })).toThrow(
      'toolName cannot be null or empty',
    );
    expect(() => resolveToolCallLimits({ excludedTools: [' '] })).toThrow(
      'toolName cannot be null or empty',
    );
  });

  it('rejects a tool that is both excluded and given its own numeric limit', () => {
    expect(() =>
      resolveToolCallLimits({ perTool: { toolA: 3 }, excludedTools: ['toolA'] }),
    ).toThrow("Tool 'toolA' is both excluded from the per-tool limit and given its own limit");
    // 'unlimited' and an exclusion say the same thing, so they may be combined.
    expect(
      resolveToolCallLimits({
        perTool: { toolA: 'unlimited' },
        excludedTools: ['toolA'],
      }).excludedTools.has('toolA'),
    ).toBe(true);
  });

  it('reads a null onLimitExceeded (a config file leaving it empty) as the default', () => {
    expect(
      resolveToolCallLimits({ onLimitExceeded: null as unknown as 'THROW' }).onLimitExceeded,
    ).toBe('THROW');
  });

  it('rejects an unknown onLimitExceeded behaviour', () => {
    expect(() =>
      resolveToolCallLimits({ onLimitExceeded: 'IGNORE' as unknown as 'THROW' }),
    ).toThrow("onLimitExceeded must be 'THROW' or 'RETURN_ERROR_RESPONSE'");
  });

  it('does not read overrides from Object.prototype', () => {
    const limits = resolveToolCallLimits({ maxCallsPerTool: 2 });
    expect(limits.perTool.get('toString')).toBeUndefined();
    expect(limits.perTool.get('constructor')).toBeUndefined();
  });
});

describe('countPriorToolCalls', () => {
  it('counts each response by name from the last user message on', () => {
    const messages: Message[] = [
      userMessage('u1'),
      toolResponseMessage(responses('toolA', 5)),
      userMessage('u2'),
      toolResponseMessage([...responses('toolA', 2), ...responses('toolB', 1)]),
      toolResponseMessage(responses('toolB', 3)),
    ];
    const counts = countPriorToolCalls(messages);
    expect(counts.byTool.get('toolA')).toBe(2);
    expect(counts.byTool.get('toolB')).toBe(4);
    expect(counts.total).toBe(6);
  });

  it('counts the whole list when there is no user message', () => {
    const counts = countPriorToolCalls([
      toolResponseMessage(responses('toolA', 2)),
      toolResponseMessage(responses('toolA', 1)),
    ]);
    expect(counts.byTool.get('toolA')).toBe(3);
    expect(counts.total).toBe(3);
  });

  it('counts nothing for an empty list or a turn without tool responses', () => {
    expect(countPriorToolCalls([]).total).toBe(0);
    expect(
      countPriorToolCalls([toolResponseMessage(responses('toolA', 3)), userMessage('new')]).total,
    ).toBe(0);
  });
});

describe('decideToolCallLimits', () => {
  it('increments before the check: two calls against a limit of 1 breach on the second', () => {
    const limits = resolveToolCallLimits({ perTool: { toolA: 1 } });
    const decisions = decideToolCallLimits(
      [toolCall('1', 'toolA'), toolCall('2', 'toolA')],
      countPriorToolCalls([]),
      limits,
    );
    expect(decisions[0]).toBeUndefined();
    expect(decisions[1]).toEqual({
      toolName: 'toolA',
      limit: 1,
      scope: 'per-tool',
      message:
        "Tool call limit (1) exceeded for tool 'toolA'. No further calls to this tool are allowed in this turn.",
    });
  });

  it('checks the per-tool cap before the total', () => {
    const limits = resolveToolCallLimits({ perTool: { toolA: 1 }, maxTotalToolCalls: 1 });
    const decisions = decideToolCallLimits(
      [toolCall('1', 'toolA'), toolCall('2', 'toolA'), toolCall('3', 'toolB')],
      countPriorToolCalls([]),
      limits,
    );
    expect(decisions[1]?.scope).toBe('per-tool');
    expect(decisions[2]).toEqual({
      toolName: null,
      limit: 1,
      scope: 'total',
      message:
        'Total tool call limit (1) exceeded for this turn. No further tool calls are allowed.',
    });
  });

  it('keeps counting rejected calls, so later calls see them', () => {
    const limits = resolveToolCallLimits({
      perTool: { toolA: 1 },
      onLimitExceeded: 'RETURN_ERROR_RESPONSE',
    });
    const counts = countPriorToolCalls([]);
    const decisions = decideToolCallLimits(
      [toolCall('1', 'toolA'), toolCall('2', 'toolA'), toolCall('3', 'toolA')],
      counts,
      limits,
    );
    expect(decisions.map((decision) => decision?.limit)).toEqual([undefined, 1, 1]);
    expect(counts.byTool.get('toolA')).toBe(3);
    expect(counts.total).toBe(3);
  });

  it('skips the per-tool cap of excluded tools but still counts them toward the total', () => {
    const limits = resolveToolCallLimits({
      maxCallsPerTool: 1,
      excludedTools: ['toolA'],
      maxTotalToolCalls: 3,
    });
    const decisions = decideToolCallLimits(
      [
        toolCall('1', 'toolA'),
        toolCall('2', 'toolA'),
        toolCall('3', 'toolA'),
        toolCall('4', 'toolA'),
      ],
      countPriorToolCalls([]),
      limits,
    );
    expect(decisions.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(decisions[3]?.scope).toBe('total');
  });

  it('uses a per-tool override instead of the default cap', () => {
    const limits = resolveToolCallLimits({ maxCallsPerTool: 1, perTool: { toolA: 3 } });
    const calls = [1, 2, 3, 4].map((id) => toolCall(String(id), 'toolA'));
    const decisions = decideToolCallLimits(calls, countPriorToolCalls([]), limits);
    expect(decisions.map((decision) => decision !== undefined)).toEqual([
      false,
      false,
      false,
      true,
    ]);
    const other = decideToolCallLimits(
      [toolCall('5', 'toolB'), toolCall('6', 'toolB')],
      countPriorToolCalls([]),
      limits,
    );
    expect(other[1]?.limit).toBe(1);
  });

  it('adds to the prior counts of the turn', () => {
    const limits = resolveToolCallLimits();
    const prior = countPriorToolCalls([
      userMessage('u'),
      toolResponseMessage(responses('toolA', 40)),
    ]);
    const decisions = decideToolCallLimits([toolCall('x', 'toolA')], prior, limits);
    expect(decisions[0]?.toolName).toBe('toolA');
    expect(decisions[0]?.limit).toBe(40);
  });
});

describe('findToolCallLimitBreaches', () => {
  const calls = (...names: string[]) =>
    names.map((name, index) => toolCall(`c${index}`, name, '{}'));

  it('answers undefined only while no call can break a limit, and agrees with decideToolCallLimits past that', () => {
    const limits = resolveToolCallLimits({ perTool: { a: 3 }, maxTotalToolCalls: 10 });
    const turn: Message[] = [userMessage('q'), toolResponseMessage(responses('a', 1))];
    // 1 prior + 2 new = 3, within the smallest cap (a: 3) and the total.
    expect(findToolCallLimitBreaches(calls('a', 'b'), turn, limits)).toBeUndefined();
    // 1 prior + 3 new = 4 could break a's cap: decided call by call.
    const spread = findToolCallLimitBreaches(calls('b', 'b', 'b'), turn, limits);
    expect(spread).toEqual([undefined, undefined, undefined]);
    const broken = findToolCallLimitBreaches(calls('a', 'a', 'a'), turn, limits);
    expect(broken).toEqual(
      decideToolCallLimits(calls('a', 'a', 'a'), countPriorToolCalls(turn), limits),
    );
    expect(broken?.[2]?.scope).toBe('per-tool');
  });

  it('counts only the current turn and breaks the total at the first call past it', () => {
    const limits = resolveToolCallLimits({ maxTotalToolCalls: 3 });
    const history: Message[] = [
      toolResponseMessage(responses('a', 5)),
      userMessage('q'),
      toolResponseMessage(responses('b', 2)),
    ];
    expect(findToolCallLimitBreaches(calls('c'), history, limits)).toBeUndefined();
    const breaches = findToolCallLimitBreaches(calls('c', 'c'), history, limits);
    expect(breaches?.[0]).toBeUndefined();
    expect(breaches?.[1]?.scope).toBe('total');
  });
});
