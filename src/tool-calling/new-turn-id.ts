import { randomUUID } from 'node:crypto';

let processPrefix: string | undefined;
let turnCount = 0;

/**
 * A fresh id for a turn of the tool loop: a random UUID drawn once per process, then a counter
 * (`<uuid>-<n>` with `n` in base 36). Unique across the turns of a process and, through the
 * random prefix, across processes (a paused turn may be resumed elsewhere), for about a tenth of
 * the allocation of a `randomUUID()` per turn (0.6 KB per loop-overhead conversation, measured
 * with bench/allocation-profile.ts). Nothing reads its shape: advisors compare it for equality.
 */
export function newTurnId(): string {
  processPrefix ??= randomUUID();
  turnCount++;
  return `${processPrefix}-${turnCount.toString(36)}`;
}
