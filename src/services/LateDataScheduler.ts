import { pendingRunLostAfterMs as lostAfterMs } from './pendingRuns.js';
import type { MessageQueue } from './ports/MessageQueue.js';
import type { Reconciliations } from './ports/Reconciliations.js';
import type { ReconcileMessage } from './ReconcileMessage.js';

export interface LateDataSchedulerDeps {
  readonly results: Reconciliations;
  readonly reconcileQueue: MessageQueue<ReconcileMessage>;
  /** The same delay as after a daily close (RECONCILE_DELAY_SECONDS). */
  readonly delaySeconds: number;
  readonly clock: () => Date;
}

/**
 * Late data: a batch committed for a day whose close has been received schedules that day's
 * reconciliation again, against the close in effect, after the usual delay, so a late batch or a
 * new version of a transaction changes the day's result without the partner resending the close.
 *
 * Batches arriving together cause one run: the run is noted on the day's result row, and while a
 * noted run has not started, later batches need nothing more, since the run reads the index when
 * it starts, after their writes. The run clears the note as it starts; a batch committed after
 * that notes (and queues) the next run. The close's own run is noted the same way, so batches that
 * arrive between the close and its reconciliation cause no second run.
 *
 * A run's id comes from what caused it (the batch, or a transaction's move), so the replay of a
 * push cut off between the note and the message (a retry, or the sweep) finds its own run pending
 * and sends the message again. A message sent twice is harmless: the second finds the run's
 * result stored and publishes it again.
 */
export class LateDataScheduler {
  constructor(private readonly deps: LateDataSchedulerDeps) {}

  /**
   * Call after the batch's index writes, never before: the guarantee above rests on that order.
   * `cause`: the same on a replay of the same change (a batch_id), and never another change's.
   */
  async batchCommitted(partnerId: string, storeId: string, businessDate: string, cause: string): Promise<'scheduled' | 'not-needed'> {
    const runId = `late-${cause}`;
    const now = this.deps.clock();
    const dueAt = new Date(now.getTime() + this.deps.delaySeconds * 1000).toISOString();
    const noted = await this.deps.results.notePendingRun(partnerId, storeId, businessDate, { runId, dueAt }, { now, lostAfterMs });
    if (!noted) return 'not-needed';
    // A crash between the note and this send leaves a note without a message: the replay of this
    // change sends it; failing that, a late batch finds the note overdue and schedules again.
    await this.deps.reconcileQueue.send(
      { partnerId, storeId, businessDate, closeBatchId: noted.closeBatchId, runId, dueAt },
      this.deps.delaySeconds,
    );
    return 'scheduled';
  }
}
