import { it } from 'vitest';

/** A service URL from the environment, and whether tests needing it must skip. */
export interface ServiceUrl {
  url: string | undefined;
  /** True when the variable is unset outside CI: the tests skip with a message. */
  skip: boolean;
}

/**
 * Reads a service URL (`REDIS_URL`, `DATABASE_URL`). Unset outside CI: skip, with a message on
 * stderr. Unset under `CI=true`: a failing test is registered, so CI never passes without it.
 */
export function serviceUrl(variable: string): ServiceUrl {
  const url = process.env[variable];
  if (url) return { url, skip: false };
  if (process.env.CI) {
    it(`needs ${variable} (run eval "$(bash scripts/services.sh)")`, () => {
      throw new Error(`${variable} is not set; the integration tests cannot skip under CI`);
    });
    return { url: undefined, skip: true };
  }
  console.warn(
    `[toolloop] ${variable} is not set: skipping its integration tests (eval "$(bash scripts/services.sh)" to run them)`,
  );
  return { url: undefined, skip: true };
}
