import type { PendingBatch } from '../../storage/PendingBatchIndex.js';

/** Batches that ended FAILED, found without scanning the ledger, which grows with every batch ever received. */
export interface FailedBatches {
  /** Notes a batch about to be marked FAILED (before the ledger says so); noting it again is fine. */
  add(batch: PendingBatch): Promise<void>;
}
