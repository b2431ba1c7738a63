import type { UsedPaymentTypes } from '../../../src/services/ports/UsedPaymentTypes.js';
import type { PaymentTypeUsage } from '../../../src/storage/PaymentTypeUsageRepository.js';

/** Payment-type notes in a map, each write a new version, for unit tests of services. */
export class InMemoryUsedPaymentTypes implements UsedPaymentTypes {
  private readonly usages = new Map<string, { partnerId: string; usage: PaymentTypeUsage }>();
  private writes = 0;

  record(partnerId: string, storeId: string, businessDate: string, paymentTypes: Iterable<string>): Promise<void> {
    for (const paymentType of paymentTypes) {
      this.writes += 1;
      this.usages.set(JSON.stringify([partnerId, paymentType, storeId, businessDate]), {
        partnerId,
        usage: { paymentType, storeId, businessDate, etag: String(this.writes) },
      });
    }
    return Promise.resolve();
  }

  listDays(partnerId: string, paymentType: string): Promise<PaymentTypeUsage[]> {
    return Promise.resolve(
      [...this.usages.values()].filter((u) => u.partnerId === partnerId && u.usage.paymentType === paymentType).map((u) => u.usage),
    );
  }

  remove(partnerId: string, usage: PaymentTypeUsage): Promise<void> {
    const key = JSON.stringify([partnerId, usage.paymentType, usage.storeId, usage.businessDate]);
    if (this.usages.get(key)?.usage.etag === usage.etag) this.usages.delete(key);
    return Promise.resolve();
  }
}
