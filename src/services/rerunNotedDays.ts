import { randomUUID } from 'node:crypto';
import type { DayCloses } from './ports/DayCloses.js';
import type { MessageQueue } from './ports/MessageQueue.js';
import type { ReconcileMessage } from './ReconcileMessage.js';

/** A note that a closed store-day used something a later change (a mapping, a direction) affects. */
interface DayNote {
  readonly storeId: string;
  readonly businessDate: string;
}

export interface NotedDaysRerun<N extends DayNote> {
  readonly closes: DayCloses;
  readonly reconcileQueue: MessageQueue<ReconcileMessage>;
  readonly partnerId: string;
  readonly notes: readonly N[];
  /** Names the runs (`<prefix>-<uuid>`), so the log and the results say what scheduled them. */
  readonly runPrefix: string;
  readonly forget: (note: N) => Promise<void>;
}

/**
 * Reconciles the noted closed days again at once: one message per day, against the close in
 * effect, as a run of its own (a fresh runId, so its events get ids of their own), due now. The
 * notes are forgotten only once every day is scheduled: a crash before that leaves them for the
 * next change.
 */
export async function rerunNotedDays<N extends DayNote>(rerun: NotedDaysRerun<N>): Promise<void> {
  const { partnerId } = rerun;
  const days = new Map(rerun.notes.map((n) => [`${n.storeId}\n${n.businessDate}`, n]));
  for (const day of days.values()) {
    const stored = await rerun.closes.get(partnerId, day.storeId, day.businessDate);
    if (stored) {
      await rerun.reconcileQueue.send(
        {
          partnerId,
          storeId: day.storeId,
          businessDate: day.businessDate,
          closeBatchId: stored.close.batch_id,
          runId: `${rerun.runPrefix}-${randomUUID()}`,
          dueAt: new Date().toISOString(),
        },
        0,
      );
    }
  }
  await Promise.all(rerun.notes.map(rerun.forget));
}
