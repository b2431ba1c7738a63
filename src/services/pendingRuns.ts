import type { PendingRun } from '../storage/ReconciliationRepository.js';

/**
 * A pending run this long past its due time is taken as lost (its message was never sent): the
 * next late batch schedules the day again, and the partner's GET shows the stored result again.
 */
export const pendingRunLostAfterMs = 15 * 60 * 1000;

/** Whether a run noted for the day is still to come: noted, and not yet taken as lost at `now`. */
export function isRunPending(run: PendingRun | null, now: Date): boolean {
  return run !== null && Date.parse(run.dueAt) + pendingRunLostAfterMs > now.getTime();
}
