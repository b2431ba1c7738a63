import type { DayCloses } from './ports/DayCloses.js';
import type { MessageQueue } from './ports/MessageQueue.js';
import type { UnmappedCodes } from './ports/UnmappedCodes.js';
import type { ReconcileMessage } from './ReconcileMessage.js';
import { rerunNotedDays } from './rerunNotedDays.js';

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
    await rerunNotedDays({
      closes: this.closes,
      reconcileQueue: this.reconcileQueue,
      partnerId,
      notes: usages,
      runPrefix: 'remap',
      forget: (u) => this.usage.remove(partnerId, u),
    });
  }
}
