import { describe, expect, it } from 'vitest';
import { describeDatabase, isConnectionFailure, withoutCredentials } from './describe-database.js';

describe('describeDatabase', () => {
  it('shows host, port and database, never the user or password', () => {
    expect(describeDatabase('postgres://app:s3cret@db.internal:6543/turns')).toBe(
      'db.internal:6543/turns',
    );
    expect(describeDatabase('postgresql://db/turns')).toBe('db:5432/turns');
    expect(describeDatabase('not a url')).toBe('the configured database');
  });

  it('takes a URL with its password out of a message', () => {
    const url = 'postgres://app:s3cret@db:5432/turns';
    expect(withoutCredentials(`Unable to connect to ${url}: refused`, url)).toBe(
      'Unable to connect to db:5432/turns: refused',
    );
  });

  it('tells a connection failure, also one wrapped in a cause, from another error', () => {
    expect(isConnectionFailure(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(
      true,
    );
    expect(
      isConnectionFailure(
        new Error('init failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:5') }),
      ),
    ).toBe(true);
    expect(isConnectionFailure(new Error('syntax error at or near "x"'))).toBe(false);
  });
});
