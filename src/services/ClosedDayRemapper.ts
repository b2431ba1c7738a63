import type { DayCloses } from './ports/DayCloses.js';
import type { MessageQueue } from './ports/MessageQueue.js';
import type { UnmappedCodes } from './ports/UnmappedCodes.js';
import type { ReconcileMessage } from './ReconcileMessage.js';

/**
 * After a mapping upload, closed days that counted a now-mapped code as unmapped are reconciled
 * again at once (contract §4.2: transactions are "re-mapped automatically").
 */
export class ClosedDayRemapper {
  constructor(
    private readonly usage: UnmappedCodes,
    private readonly closes: DayCloses,
    private readonly reconcileQueue: MessageQueue<ReconcileMessage>,
  ) {}

  async remap(partnerId: string, mappedCodes: ReadonlySet<string>): Promise<void> {
    const usages = (await this.usage.listForPartner(partnerId)).filter((u) => mappedCodes.has(u.sourceCode));
    const days = new Map(usages.map((u) => [`${u.storeId}\n${u.businessDate}`, u]));
    for (const day of days.values()) {
      const stored = await this.closes.get(partnerId, day.storeId, day.businessDate);
      if (stored) {
        await this.reconcileQueue.send(
          { partnerId, storeId: day.storeId, businessDate: day.businessDate, closeBatchId: stored.close.batch_id },
          0,
        );
      }
    }
    // Removed only once every day is scheduled: a crash before this leaves them for the next upload.
    await Promise.all(usages.map((u) => this.usage.remove(partnerId, u)));
  }
}
