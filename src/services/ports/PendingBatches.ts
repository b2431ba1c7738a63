import type { PendingBatch } from '../../storage/PendingBatchIndex.js';

/** Pushes that have a ledger entry and may not be committed yet, found by age without a ledger scan. */
export interface PendingBatches {
  add(batch: PendingBatch): Promise<void>;
  /** Removing a row already gone is fine. */
  remove(batch: PendingBatch): Promise<void>;
  /** Every batch created before `cutoff`, oldest first. */
  listOlderThan(cutoff: Date): AsyncIterable<PendingBatch>;
}
