import { describe, expect, it } from 'vitest';
import { sessionEviction } from './session-eviction.js';

describe('sessionEviction: least recently used (maxSessions)', () => {
  it('rejects a negative or fractional maxSessions and a ttl that is not positive', () => {
    expect(() => sessionEviction({ maxSessions: -1 })).toThrow(
      'eviction.maxSessions must be a whole number ≥ 0 or Infinity, got -1',
    );
    expect(() => sessionEviction({ maxSessions: 1.5 })).toThrow('got 1.5');
    expect(() => sessionEviction({ ttlMs: 0 })).toThrow('eviction.ttlMs must be positive, got 0');
    expect(() => sessionEviction({ ttlMs: -5 })).toThrow('eviction.ttlMs must be positive');
  });

  it('evicts the least recently used session once over the limit', () => {
    const lru = sessionEviction({ maxSessions: 2 });
    expect([...lru.onAccess('a')]).toEqual([]);
    expect([...lru.onAccess('b')]).toEqual([]);
    expect([...lru.onAccess('a')]).toEqual([]);
    expect([...lru.onAccess('c')]).toEqual(['b']);
    expect([...lru.onAccess('d')]).toEqual(['a']);
  });

  it('evicts nothing when the same session is accessed again, and forgets removed sessions', () => {
    const lru = sessionEviction({ maxSessions: 1 });
    lru.onAccess('a');
    expect([...lru.onAccess('a')]).toEqual([]);
    lru.onRemoved('a');
    expect([...lru.onAccess('b')]).toEqual([]);
  });

  it('holds 1000 sessions by default', () => {
    const lru = sessionEviction();
    for (let i = 0; i < 1000; i++) expect(lru.onAccess(`s${i}`).size).toBe(0);
    expect([...lru.onAccess('one-more')]).toEqual(['s0']);
  });

  it('with maxSessions 0 evicts the current session every time (Spring AI: AlwaysEvictStrategy)', () => {
    const always = sessionEviction({ maxSessions: 0 });
    expect([...always.onAccess('x')]).toEqual(['x']);
    expect([...always.onAccess('x')]).toEqual(['x']);
  });

  it('with maxSessions Infinity and no ttl never evicts (Spring AI: NeverEvictStrategy)', () => {
    const never = sessionEviction({ maxSessions: Infinity });
    for (let i = 0; i < 5000; i++) expect(never.onAccess(`s${i}`).size).toBe(0);
  });
});

describe('sessionEviction: idle time (ttlMs)', () => {
  it('evicts other sessions idle for at least the ttl on the next access, never the current one', () => {
    let now = 0;
    const ttl = sessionEviction({ ttlMs: 1000, maxSessions: Infinity, now: () => now });
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
    const ttl = sessionEviction({ ttlMs: 10, now: () => now });
    ttl.onAccess('a');
    ttl.onRemoved('a');
    now = 100;
    expect([...ttl.onAccess('b')]).toEqual([]);
  });

  it('with maxSessions as well, evicts what either rule says (Spring AI: CompositeEvictionStrategy)', () => {
    let now = 0;
    const both = sessionEviction({ maxSessions: 2, ttlMs: 100, now: () => now });
    both.onAccess('a');
    both.onAccess('b');
    now = 50;
    expect([...both.onAccess('c')]).toEqual(['a']);
    now = 200;
    expect([...both.onAccess('d')].sort()).toEqual(['b', 'c']);
    both.onRemoved('d');
    now = 250;
    expect([...both.onAccess('e')]).toEqual([]);
  });
});
