import type { Telemetry } from '../observability/Telemetry.js';
import type { QueueLog } from '../queue/createQueueHandler.js';
import type { ConcurrencyLimit } from './ConcurrencyLimit.js';
import type { DayReconciler, ReconcileOutcome } from './DayReconciler.js';
import type { ReconcileMessage } from './ReconcileMessage.js';
import type { MessageQueue } from './ports/MessageQueue.js';
import type { ReconciliationSlotWait } from './reconciliationSlotWait.js';

/**
 * The reconcileDay function's way into the process's reconciliation slots: a message runs once a
 * slot is free, or, when none frees within the wait (`reconciliationSlotWait`), is sent again to
 * the reconcile queue for later and its run ends without reconciling.
 */
export class ReconciliationSlots {
  constructor(
    readonly limit: ConcurrencyLimit,
    private readonly queue: MessageQueue<ReconcileMessage>,
    private readonly wait: ReconciliationSlotWait,
  ) {}

  async reconcile(
    reconciler: Pick<DayReconciler, 'reconcile'>,
    message: ReconcileMessage,
    telemetry: Telemetry,
    log: QueueLog,
  ): Promise<ReconcileOutcome | 'deferred'> {
    const run = await this.limit.runWithin(this.wait.maxWaitMs, () => reconciler.reconcile(message, telemetry, log));
    if (run.started) return run.value;
    // Sent before this run ends: a crash in between leaves the original to be delivered again.
    await this.queue.send(message, this.wait.deferSeconds);
    log.warn(
      `no reconciliation slot freed within ${this.wait.maxWaitMs / 1000} s (${this.limit.slots} running); sent again, due in ${this.wait.deferSeconds} s`,
    );
    return 'deferred';
  }
}
