import type { ControlTotals } from '../../domain/reconciliation/ControlTotals.js';
import type { ReconciliationFilter, ReconciliationRecord } from '../../storage/ReconciliationRepository.js';

/** The reconciliation state of each store-day: RECEIVED when a close arrives, then the result. */
export interface Reconciliations {
  get(partnerId: string, storeId: string, businessDate: string): Promise<ReconciliationRecord | undefined>;
  /** Sets the day to RECEIVED for this close, unless a close received later is recorded. */
  markReceived(
    partnerId: string,
    storeId: string,
    businessDate: string,
    close: { batchId: string; receivedAt: string; expected: ControlTotals },
  ): Promise<void>;
  /** Records a result for the close it was computed from; false when that close was superseded. */
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
  ): Promise<boolean>;
  list(filter: ReconciliationFilter): AsyncIterable<ReconciliationRecord>;
}
