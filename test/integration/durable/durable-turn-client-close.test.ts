import { afterAll, describe, expect, it } from 'vitest';
import { DbosTurnClient, DbosTurnWorker } from '../../../src/durable/index.js';
import { IllegalStateError } from '../../../src/errors/index.js';
import { serviceUrl } from '../services.js';
import { dropDurableDatabase, durableDatabaseUrl } from '../support/durable-database.js';

const database = serviceUrl('DATABASE_URL');

describe.skipIf(database.skip)('DbosTurnClient after close()', () => {
  const url = database.skip ? '' : durableDatabaseUrl(database.url as string, 'close');
  afterAll(() => dropDurableDatabase(url), 60_000);

  // close() ended the engine's pool a second time ('Called end on pool more than once'), and a
  // client or handle used after close() failed with pg's 'Cannot use a pool after calling end
  // on the pool'.
  it('closes once however often close() is called, and refuses every later use with an IllegalStateError', async () => {
    await DbosTurnWorker.prepareDatabase(url);
    const client = await DbosTurnClient.create({ systemDatabaseUrl: url });
    const handle = client.turn('some-turn');
    await Promise.all([client.close(), client.close()]);
    await client.close();
    const refusals = [
      () => client.start('agent', { user: 'Hello' }),
      () => client.turn('some-turn').status(),
      () => handle.status(),
      () => handle.cancel(),
      () =>
        client.answerUnknownOutcome(
          'some-turn',
          { round: 1, toolCallId: 'c1' },
          {
            type: 'failed',
          },
        ),
    ];
    for (const use of refusals) {
      const error = await use().then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(IllegalStateError);
      expect((error as Error).message).toBe(
        'this DbosTurnClient is closed: create another one to reach the turns',
      );
    }
  }, 60_000);
});
