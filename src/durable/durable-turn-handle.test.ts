import { describe, expect, it } from 'vitest';
import { DurableTurnError } from './durable-turn-error.js';
import { DurableTurnHandle, type TurnEngineClient } from './durable-turn-handle.js';

/** An engine client whose one turn stays in `status` for ever. */
function engineWith(status: string): TurnEngineClient {
  return {
    getWorkflow: async () => ({ status }),
    retrieveWorkflow: () => ({ getResult: () => new Promise(() => {}) }),
    getEvent: async () => null,
    readStream: async function* () {},
    cancelWorkflow: async () => {},
  };
}

async function timeoutOf(status: string): Promise<DurableTurnError> {
  const error = await new DurableTurnHandle(engineWith(status), 'turn-1')
    .result({ timeoutMs: 20 })
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(DurableTurnError);
  return error as DurableTurnError;
}

describe('DurableTurnHandle.result with a timeout', () => {
  // The durable-turns page starts a worker in one snippet and a client in the next; a reader who
  // ran the client alone waited a minute for "(it is queued; it goes on)", which did not say that
  // no worker was running.
  it('says that no worker has taken a turn still queued, and what to start', async () => {
    const error = await timeoutOf('ENQUEUED');
    expect(error.problem).toBe('timeout');
    expect(error.message).toMatch(
      /did not end within 20 ms \(no worker has taken it yet: start a DbosTurnWorker that registers its agent/,
    );
  });

  it('says a running turn goes on', async () => {
    const error = await timeoutOf('PENDING');
    expect(error.message).toBe('Turn turn-1 did not end within 20 ms (it is running; it goes on)');
  });
});
