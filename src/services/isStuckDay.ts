import { maxReconcileDelaySeconds } from '../config/loadConfig.js';
import type { ReconciliationRecord } from '../storage/ReconciliationRepository.js';
import { isRunPending } from './pendingRuns.js';

/**
 * How long after its close a day may stay RECEIVED before it is taken as stuck: the longest delay
 * the service allows before the close's run, and an hour for the run and its retries (five
 * attempts, each within the function timeout).
 * @internal read by the tests instead of restating it.
 */
export const stuckAfterMs = (maxReconcileDelaySeconds + 60 * 60) * 1000;

/**
 * A store-day whose close has had no result for longer than any run takes, and that has no run to
 * come: its reconcile message was lost (expired after 7 days in a poison queue, deleted there, or
 * cleared with its queue) or its every attempt failed. Nothing reconciles it by itself; HQ's
 * `reconciliation rerun` does, and a late batch for the day schedules a run too.
 */
export function isStuckDay(record: Pick<ReconciliationRecord, 'status' | 'closeReceivedAt' | 'pendingRun'>, now: Date): boolean {
  if (record.status !== 'RECEIVED' || isRunPending(record.pendingRun, now)) return false;
  const received = Date.parse(record.closeReceivedAt);
  return !Number.isNaN(received) && received + stuckAfterMs < now.getTime();
}
