import type { LedgerPosition, UncommittedBatch } from '../../storage/BatchLedgerListing.js';

/** The batch ledger's entries that are not committed, paged for HQ. */
export interface UncommittedBatches {
  /** One page of entries in `state`, across partners or one partner's, at most `limit`; `next` while more may follow. */
  page(
    state: 'PENDING' | 'FAILED',
    options: { partnerId?: string | undefined; limit: number; after?: LedgerPosition | undefined },
  ): Promise<{ items: UncommittedBatch[]; next: LedgerPosition | undefined }>;
  /** Whether a position handed back by a caller can be one a page produced. */
  isPosition(position: LedgerPosition): boolean;
}
