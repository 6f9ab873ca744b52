import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_CLAUSES, requestClauses } from './request-clauses.js';

describe('requestClauses', () => {
  it('splits a request that asks for two things at a sequencing conjunction', () => {
    expect(
      requestClauses(
        'Find the area of a circle with radius 5 and also get the stock price of AAPL.',
      ),
    ).toEqual(['Find the area of a circle with radius 5', 'get the stock price of AAPL.']);
    expect(requestClauses('Book the room, then order lunch for twelve')).toEqual([
      'Book the room',
      'order lunch for twelve',
    ]);
  });

  it('splits at sentence ends, semicolons and line breaks', () => {
    expect(
      requestClauses('Sum the multiples of 3 and 5. Also find the first five primes.'),
    ).toEqual(['Sum the multiples of 3 and 5.', 'Also find the first five primes.']);
    expect(requestClauses('reset her password; unlock her account\nrevoke her sessions')).toEqual([
      'reset her password;',
      'unlock her account',
      'revoke her sessions',
    ]);
  });

  it('splits at a bare "and" between two clauses of their own', () => {
    expect(requestClauses('Look up INC0048211 and declare it a major incident.')).toEqual([
      'Look up INC0048211',
      'declare it a major incident.',
    ]);
    expect(
      requestClauses(
        'Analyze the reported phish, purge it from all mailboxes, and block the sender.',
      ),
    ).toEqual(['Analyze the reported phish, purge it from all mailboxes', 'block the sender.']);
  });

  it('keeps an "and" that joins two things of one request', () => {
    // A function word or a number after "and", or too short a side: one need.
    expect(requestClauses('Show the health score and the product usage for Acme')).toEqual([]);
    expect(requestClauses('What is the weather in Paris and London?')).toEqual([]);
    expect(requestClauses('Sum all multiples of 3 and 5 between 1 and 1000')).toEqual([]);
    expect(requestClauses('salt and pepper shakers for the office kitchen')).toEqual([]);
    expect(requestClauses('Give me the temperature, rain and wind forecast in Lyon')).toEqual([]);
  });

  it('gives nothing for a single clause, and drops one-word fragments', () => {
    expect(requestClauses('Reverse journal document 100004417')).toEqual([]);
    expect(requestClauses('Thanks. Reverse journal document 100004417')).toEqual([]);
    expect(requestClauses('')).toEqual([]);
  });

  it('caps the clauses, keeping the rest in the last one', () => {
    const request = Array.from({ length: 12 }, (_, i) => `do task number ${i}.`).join(' ');
    const clauses = requestClauses(request);
    expect(clauses).toHaveLength(MAX_REQUEST_CLAUSES);
    expect(clauses[MAX_REQUEST_CLAUSES - 1]).toBe(
      'do task number 7. do task number 8. do task number 9. do task number 10. do task number 11.',
    );
  });
});
