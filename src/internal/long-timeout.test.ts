import { afterEach, describe, expect, it, vi } from 'vitest';
import { delay, LongTimeout, MAX_TIMER_DELAY_MS } from './long-timeout.js';

const DAY = 86_400_000;
const realWait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  vi.useRealTimers();
});

describe('LongTimeout', () => {
  it.each([
    ['2^31 ms', 2 ** 31],
    ['30 days', 30 * DAY],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['Number.MAX_VALUE', Number.MAX_VALUE],
  ])(
    'has not fired after a real 50 ms wait for %s (setTimeout fires after 1 ms)',
    async (_name, ms) => {
      const fired: string[] = [];
      const timer = new LongTimeout(() => fired.push('long'), ms);
      await realWait(50);
      expect(fired).toEqual([]);
      timer.clear();
    },
  );

  it('fires a delay within the platform limit once, as setTimeout does', async () => {
    const fired: number[] = [];
    const timer = new LongTimeout(() => fired.push(1), 5);
    expect(timer.armed).toBe(true);
    await realWait(40);
    expect(fired).toEqual([1]);
    expect(timer.armed).toBe(false);
  });

  it('chains timers: 30 days fires at 30 days, not at 24.8 days and not before', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const fired: number[] = [];
    new LongTimeout(() => fired.push(performance.now()), 30 * DAY);
    vi.advanceTimersByTime(MAX_TIMER_DELAY_MS);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(30 * DAY - MAX_TIMER_DELAY_MS - 1);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toHaveLength(1);
    vi.advanceTimersByTime(100 * DAY);
    expect(fired).toHaveLength(1);
  });

  it('chains more than two timers for a delay of several platform limits', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const fired: number[] = [];
    const start = performance.now();
    new LongTimeout(() => fired.push(performance.now() - start), 4 * MAX_TIMER_DELAY_MS + 7);
    vi.advanceTimersByTime(4 * MAX_TIMER_DELAY_MS + 6);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([4 * MAX_TIMER_DELAY_MS + 7]);
  });

  it('clear() stops a chained countdown between links', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const fired: number[] = [];
    const timer = new LongTimeout(() => fired.push(1), 3 * MAX_TIMER_DELAY_MS);
    vi.advanceTimersByTime(MAX_TIMER_DELAY_MS + 5);
    expect(timer.armed).toBe(true);
    timer.clear();
    expect(timer.armed).toBe(false);
    vi.advanceTimersByTime(10 * MAX_TIMER_DELAY_MS);
    expect(fired).toEqual([]);
  });

  it('holds no timer for Infinity', () => {
    const timer = new LongTimeout(() => {}, Number.POSITIVE_INFINITY);
    expect(timer.armed).toBe(false);
  });
});

describe('delay', () => {
  it('waits a long delay until its signal aborts, then resolves', async () => {
    const controller = new AbortController();
    let done = false;
    const waiting = delay(30 * DAY, controller.signal).then(() => {
      done = true;
    });
    await realWait(30);
    expect(done).toBe(false);
    controller.abort();
    await waiting;
    expect(done).toBe(true);
  });
});
