import type { NotePage } from '../../../src/services/ports/NotePage.js';
import type { UsedPaymentTypes } from '../../../src/services/ports/UsedPaymentTypes.js';
import type { PaymentTypeUsage } from '../../../src/storage/PaymentTypeUsageRepository.js';
import { pageOfSorted } from './pageOfSorted.js';

/** Payment-type notes in a map, each write a new version, for unit tests of services. */
export class InMemoryUsedPaymentTypes implements UsedPaymentTypes {
  /** partner and type → store and day → note */
  private readonly usages = new Map<string, Map<string, PaymentTypeUsage>>();
  private writes = 0;

  record(partnerId: string, storeId: string, businessDate: string, paymentTypes: Iterable<string>): Promise<void> {
    for (const paymentType of paymentTypes) {
      this.writes += 1;
      const days = this.usages.get(JSON.stringify([partnerId, paymentType])) ?? new Map<string, PaymentTypeUsage>();
      days.set(JSON.stringify([storeId, businessDate]), { paymentType, storeId, businessDate, etag: String(this.writes) });
      this.usages.set(JSON.stringify([partnerId, paymentType]), days);
    }
    return Promise.resolve();
  }

  listDaysPage(partnerId: string, paymentType: string, after: string | undefined, max: number): Promise<NotePage<PaymentTypeUsage>> {
    return pageOfSorted(this.usages.get(JSON.stringify([partnerId, paymentType])) ?? [], after, max);
  }

  remove(partnerId: string, usage: PaymentTypeUsage): Promise<void> {
    const days = this.usages.get(JSON.stringify([partnerId, usage.paymentType]));
    const key = JSON.stringify([usage.storeId, usage.businessDate]);
    if (days?.get(key)?.etag === usage.etag) days.delete(key);
    return Promise.resolve();
  }
}
