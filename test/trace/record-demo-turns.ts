import { sampleTurnEvents } from '../../src/observability/__tests__/sample-turn-events.js';
import type { TurnEvent } from '../../src/observability/index.js';

/** The events of the demo turns (until the loop emits them: the sample turn events). */
export async function recordDemoTurns(): Promise<TurnEvent[]> {
  return sampleTurnEvents();
}
