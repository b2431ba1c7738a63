import type { BatchKind } from '../../domain/model/BatchKind.js';
import type { BatchReceipt, LedgerEntry } from '../../storage/BatchLedger.js';

/**
 * One entry per (partner, batch_id), batch ids compared without regard to case: PENDING from the
 * first receipt, COMMITTED once every write of the batch is done. Only the request whose commit
 * succeeds answers ACCEPTED, so every write is conditional on the entry read.
 */
export interface Ledger {
  get(partnerId: string, batchId: string): Promise<LedgerEntry | undefined>;
  /** Undefined when another request created the entry first. */
  createPending(partnerId: string, batchId: string, kind: BatchKind, bodyHash: string, now: Date): Promise<LedgerEntry | undefined>;
  /** False when the entry is no longer the one read (another request won). */
  commit(partnerId: string, batchId: string, pending: LedgerEntry, receipt: BatchReceipt, now: Date): Promise<boolean>;
  /** False when the entry is no longer the one read. */
  /** Marks the batch FAILED if the entry is still the PENDING one read; false when another request got there first. */
  markFailed(partnerId: string, batchId: string, pending: LedgerEntry, failure: string, now: Date): Promise<boolean>;
  deleteAbandoned(partnerId: string, batchId: string, pending: LedgerEntry): Promise<boolean>;
  listPending(): AsyncIterable<{ partnerId: string; batchId: string; createdAt: string }>;
}
