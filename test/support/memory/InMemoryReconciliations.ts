import type { ControlTotals } from '../../../src/domain/reconciliation/ControlTotals.js';
import type { ReconciliationFilter, ReconciliationRecord } from '../../../src/storage/ReconciliationRepository.js';
import type { Reconciliations } from '../../../src/services/ports/Reconciliations.js';

/** Reconciliation states in a map, for unit tests of services. */
export class InMemoryReconciliations implements Reconciliations {
  private readonly records = new Map<string, ReconciliationRecord>();

  get(partnerId: string, storeId: string, businessDate: string): Promise<ReconciliationRecord | undefined> {
    return Promise.resolve(this.records.get(JSON.stringify([partnerId, storeId, businessDate])));
  }

  markReceived(
    partnerId: string,
    storeId: string,
    businessDate: string,
    close: { batchId: string; receivedAt: string; expected: ControlTotals },
  ): Promise<void> {
    const k = JSON.stringify([partnerId, storeId, businessDate]);
    const current = this.records.get(k);
    if (current && (current.closeBatchId === close.batchId || current.closeReceivedAt > close.receivedAt)) return Promise.resolve();
    this.records.set(k, {
      partnerId,
      storeId,
      businessDate,
      status: 'RECEIVED',
      closeBatchId: close.batchId,
      closeReceivedAt: close.receivedAt,
      checkedAt: null,
      expected: close.expected,
      actual: null,
      differences: [],
      diagnosis: null,
    });
    return Promise.resolve();
  }

  saveResult(
    partnerId: string,
    storeId: string,
    businessDate: string,
    closeBatchId: string,
    result: {
      status: 'MATCHED' | 'MISMATCHED';
      checkedAt: string;
      actual: ControlTotals;
      differences: readonly string[];
      diagnosis: unknown;
    },
  ): Promise<boolean> {
    const k = JSON.stringify([partnerId, storeId, businessDate]);
    const current = this.records.get(k);
    if (current?.closeBatchId !== closeBatchId) return Promise.resolve(false);
    this.records.set(k, { ...current, ...result });
    return Promise.resolve(true);
  }

  async *list(filter: ReconciliationFilter): AsyncIterable<ReconciliationRecord> {
    for (const record of [...this.records.values()]) {
      if (filter.partnerId && record.partnerId !== filter.partnerId) continue;
      if (filter.status && record.status !== filter.status) continue;
      if (filter.businessDate && record.businessDate !== filter.businessDate) continue;
      yield await Promise.resolve(record);
    }
  }
}
