import { describe, expect, it } from 'vitest';
import { withSessionTimeoutOption } from './session-timeout-url.js';

describe('withSessionTimeoutOption', () => {
  it('sets the idle-in-transaction timeout at connection start', () => {
    const url = new URL(withSessionTimeoutOption('postgres://app:secret@db:5432/dbos_sys'));
    expect(url.searchParams.get('options')).toBe('-c idle_in_transaction_session_timeout=60000');
    expect(url.username).toBe('app');
    expect(url.password).toBe('secret');
    expect(url.pathname).toBe('/dbos_sys');
  });

  it('keeps the options and parameters the URL has, and a timeout it sets itself', () => {
    const withOptions = new URL(
      withSessionTimeoutOption('postgresql://db/sys?sslmode=require&options=-c%20search_path%3Dx'),
    );
    expect(withOptions.searchParams.get('sslmode')).toBe('require');
    expect(withOptions.searchParams.get('options')).toBe(
      '-c search_path=x -c idle_in_transaction_session_timeout=60000',
    );
    const own = 'postgres://db/sys?options=-c%20idle_in_transaction_session_timeout%3D5000';
    expect(withSessionTimeoutOption(own)).toBe(own);
  });

  it('leaves a string that is not a PostgreSQL URL alone', () => {
    expect(withSessionTimeoutOption('host=/var/run/postgresql dbname=sys')).toBe(
      'host=/var/run/postgresql dbname=sys',
    );
    expect(withSessionTimeoutOption('mysql://db/sys')).toBe('mysql://db/sys');
  });
});
