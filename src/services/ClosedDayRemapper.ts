import { randomUUID } from 'node:crypto';
import type { DayCloseRepository } from '../storage/DayCloseRepository.js';
import type { JsonQueue } from '../storage/JsonQueue.js';
import type { UnmappedUsageRepository } from '../storage/UnmappedUsageRepository.js';
import type { ReconcileMessage } from './ReconcileMessage.js';

/**
 * After a mapping upload, closed days that counted a now-mapped code as unmapped are reconciled
 * again at once (contract §4.2: transactions are "re-mapped automatically").
 */
export class ClosedDayRemapper {
  constructor(
    private readonly usage: UnmappedUsageRepository,
    private readonly closes: DayCloseRepository,
    private readonly reconcileQueue: JsonQueue<ReconcileMessage>,
  ) {}

  async remap(partnerId: string, mappedCodes: ReadonlySet<string>): Promise<void> {
    const usages = (await this.usage.listForPartner(partnerId)).filter((u) => mappedCodes.has(u.sourceCode));
    const days = new Map(usages.map((u) => [`${u.storeId}\n${u.businessDate}`, u]));
    for (const day of days.values()) {
      const stored = await this.closes.get(partnerId, day.storeId, day.businessDate);
      if (stored) {
        await this.reconcileQueue.send(
          {
            partnerId,
            storeId: day.storeId,
            businessDate: day.businessDate,
            closeBatchId: stored.close.batch_id,
            runId: `remap-${randomUUID()}`,
            dueAt: new Date().toISOString(),
          },
          0,
        );
      }
    }
    // Removed only once every day is scheduled: a crash before this leaves them for the next upload.
    await Promise.all(usages.map((u) => this.usage.remove(partnerId, u)));
  }
}
