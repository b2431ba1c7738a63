import { randomUUID } from 'node:crypto';
import type { ReconcileMessage } from '../src/services/ReconcileMessage.js';
import type { ReconciliationRepository } from '../src/storage/ReconciliationRepository.js';

/**
 * The day's message as a daily close sends it: a run of its own, noted as the day's pending run
 * just before (as the close notes it before its message is due), so that each measured
 * reconciliation takes the close's path (it checks the run was not done already, then clears the
 * pending run before it lists the day) rather than a rerun's.
 */
export async function pendingRunMessage(results: ReconciliationRepository, day: ReconcileMessage): Promise<ReconcileMessage> {
  const now = new Date();
  const run = { runId: `bench-${randomUUID()}`, dueAt: now.toISOString() };
  const noted = await results.notePendingRun(day.partnerId, day.storeId, day.businessDate, run, { now, lostAfterMs: 0 });
  if (noted?.closeBatchId !== day.closeBatchId) throw new Error('the reconciled day has no row for its close to note a run on');
  return { ...day, ...run };
}
