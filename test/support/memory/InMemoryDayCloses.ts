import { closeComesAfter, type CloseReceipt } from '../../../src/domain/reconciliation/closeComesAfter.js';
import type { StoredClose } from '../../../src/storage/DayCloseRepository.js';
import type { DayCloses } from '../../../src/services/ports/DayCloses.js';

/** Daily closes in a map, for unit tests of services. */
export class InMemoryDayCloses implements DayCloses {
  private readonly closes = new Map<string, StoredClose>();

  get(partnerId: string, storeId: string, businessDate: string): Promise<StoredClose | undefined> {
    return Promise.resolve(this.closes.get(JSON.stringify([partnerId, storeId, businessDate])));
  }

  putIfLatest(partnerId: string, stored: StoredClose): Promise<boolean> {
    const k = JSON.stringify([partnerId, stored.close.store_id, stored.close.business_date]);
    const current = this.closes.get(k);
    if (current?.close.batch_id === stored.close.batch_id) return Promise.resolve(true);
    if (current && !closeComesAfter(receiptOf(stored), receiptOf(current))) return Promise.resolve(false);
    this.closes.set(k, stored);
    return Promise.resolve(true);
  }
}

function receiptOf(stored: StoredClose): CloseReceipt {
  return { batchId: stored.close.batch_id, receivedAt: stored.receivedAt };
}
