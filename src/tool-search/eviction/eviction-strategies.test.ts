import { describe, expect, it } from 'vitest';
import { AlwaysEvictStrategy } from './always-evict-strategy.js';
import { CompositeEvictionStrategy } from './composite-eviction-strategy.js';
import { LruEvictionStrategy } from './lru-eviction-strategy.js';
import { NeverEvictStrategy } from './never-evict-strategy.js';
import { TtlEvictionStrategy } from './ttl-eviction-strategy.js';

describe('LruEvictionStrategy', () => {
  it('requires a positive maxSessions and defaults to 1000', () => {
    expect(() => new LruEvictionStrategy({ maxSessions: 0 })).toThrow(
      'maxSessions must be positive',
    );
    expect(() => new LruEvictionStrategy({ maxSessions: -1 })).toThrow(
      'maxSessions must be positive',
    );
    expect(new LruEvictionStrategy().maxSessions).toBe(1000);
  });

  it('evicts the least recently used session once over the limit', () => {
    const lru = new LruEvictionStrategy({ maxSessions: 2 });
    expect([...lru.onAccess('a')]).toEqual([]);
    expect([...lru.onAccess('b')]).toEqual([]);
    expect([...lru.onAccess('a')]).toEqual([]);
    expect([...lru.onAccess('c')]).toEqual(['b']);
    expect([...lru.onAccess('d')]).toEqual(['a']);
  });

  it('evicts nothing when the same session is accessed again, and forgets removed sessions', () => {
    const lru = new LruEvictionStrategy({ maxSessions: 1 });
    lru.onAccess('a');
    expect([...lru.onAccess('a')]).toEqual([]);
    lru.onRemoved('a');
    expect([...lru.onAccess('b')]).toEqual([]);
  });

  it('holds 1000 sessions by default', () => {
    const lru = new LruEvictionStrategy();
    for (let i = 0; i < 1000; i++) expect(lru.onAccess(`s${i}`).size).toBe(0);
    expect([...lru.onAccess('one-more')]).toEqual(['s0']);
  });
});

describe('TtlEvictionStrategy', () => {
  it('rejects a missing, zero or negative ttl', () => {
    expect(() => new TtlEvictionStrategy(undefined as never)).toThrow('ttl must not be null');
    expect(() => new TtlEvictionStrategy({ ttlMs: 0 })).toThrow('ttl must be positive');
    expect(() => new TtlEvictionStrategy({ ttlMs: -5 })).toThrow('ttl must be positive');
  });

  it('evicts other sessions idle for at least the ttl on the next access, never the current one', () => {
    let now = 0;
    const ttl = new TtlEvictionStrategy({ ttlMs: 1000, now: () => now });
    ttl.onAccess('a');
    now = 500;
    ttl.onAccess('b');
    now = 1000;
    expect([...ttl.onAccess('a')]).toEqual([]);
    now = 1500;
    expect([...ttl.onAccess('c')]).toEqual(['b']);
    now = 5000;
    expect([...ttl.onAccess('a')]).toEqual(['c']);
    now = 10_000;
    expect([...ttl.onAccess('a')]).toEqual([]);
  });

  it('forgets removed sessions', () => {
    let now = 0;
    const ttl = new TtlEvictionStrategy({ ttlMs: 10, now: () => now });
    ttl.onAccess('a');
    ttl.onRemoved('a');
    now = 100;
    expect([...ttl.onAccess('b')]).toEqual([]);
  });
});

describe('CompositeEvictionStrategy', () => {
  it('needs at least one delegate', () => {
    expect(() => new CompositeEvictionStrategy([])).toThrow('at least one strategy is required');
  });

  it('with one delegate behaves like it', () => {
    const composite = new CompositeEvictionStrategy([new LruEvictionStrategy({ maxSessions: 1 })]);
    composite.onAccess('a');
    expect([...composite.onAccess('b')]).toEqual(['a']);
  });

  it('returns the union of its delegates and broadcasts removals', () => {
    let now = 0;
    const lru = new LruEvictionStrategy({ maxSessions: 2 });
    const ttl = new TtlEvictionStrategy({ ttlMs: 100, now: () => now });
    const composite = new CompositeEvictionStrategy([lru, ttl]);
    composite.onAccess('a');
    composite.onAccess('b');
    now = 200;
    expect([...composite.onAccess('c')].sort()).toEqual(['a', 'b']);
    composite.onRemoved('a');
    composite.onRemoved('b');
    now = 250;
    expect([...composite.onAccess('d')]).toEqual([]);
  });

  it('composed with always-evict still evicts the current session', () => {
    const composite = new CompositeEvictionStrategy([
      new AlwaysEvictStrategy(),
      new LruEvictionStrategy({ maxSessions: 5 }),
    ]);
    expect([...composite.onAccess('a')]).toEqual(['a']);
  });
});

describe('AlwaysEvictStrategy and NeverEvictStrategy', () => {
  it('always evict the current session, or never anything', () => {
    expect([...new AlwaysEvictStrategy().onAccess('x')]).toEqual(['x']);
    const never = new NeverEvictStrategy();
    for (let i = 0; i < 5000; i++) expect(never.onAccess(`s${i}`).size).toBe(0);
  });
});
