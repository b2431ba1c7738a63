import type { DayCloses } from './ports/DayCloses.js';
import type { MessageQueue } from './ports/MessageQueue.js';
import type { UsedPaymentTypes } from './ports/UsedPaymentTypes.js';
import type { ReconcileMessage } from './ReconcileMessage.js';
import { rerunNotedDays } from './rerunNotedDays.js';

/**
 * After HQ sets the direction of a partner's payment type, closed days that used the type are
 * reconciled again at once, so that their results (and the report files written from them) count
 * its payments with the direction now in effect, as `hq reports rebuild` does.
 */
export class ClosedDayRecounter {
  constructor(
    private readonly usage: UsedPaymentTypes,
    private readonly closes: DayCloses,
    private readonly reconcileQueue: MessageQueue<ReconcileMessage>,
  ) {}

  /** Call after the direction is stored: a day noted from then on is a run that already reads it. */
  async recount(partnerId: string, paymentType: string): Promise<void> {
    await rerunNotedDays({
      closes: this.closes,
      reconcileQueue: this.reconcileQueue,
      partnerId,
      notes: await this.usage.listDays(partnerId, paymentType),
      runPrefix: 'direction',
      forget: (u) => this.usage.remove(partnerId, u),
    });
  }
}
