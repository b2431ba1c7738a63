import { randomUUID } from 'node:crypto';
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

/** A pending run this long past its due time is taken as lost (its message never sent) and scheduled again. */
const lostAfterMs = 15 * 60 * 1000;

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
 */
export class LateDataScheduler {
  constructor(private readonly deps: LateDataSchedulerDeps) {}

  /** Call after the batch's index writes, never before: the guarantee above rests on that order. */
  async batchCommitted(partnerId: string, storeId: string, businessDate: string): Promise<'scheduled' | 'not-needed'> {
    const runId = `late-${randomUUID()}`;
    const now = this.deps.clock();
    const dueAt = new Date(now.getTime() + this.deps.delaySeconds * 1000).toISOString();
    const noted = await this.deps.results.notePendingRun(partnerId, storeId, businessDate, { runId, dueAt }, { now, lostAfterMs });
    if (!noted) return 'not-needed';
    // A crash between the note and this send leaves a note without a message: the next late batch
    // finds it overdue and schedules again.
    await this.deps.reconcileQueue.send(
      { partnerId, storeId, businessDate, closeBatchId: noted.closeBatchId, runId, dueAt },
      this.deps.delaySeconds,
    );
    return 'scheduled';
  }
}
