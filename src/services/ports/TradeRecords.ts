import type { TradeRecordSummary } from '../../domain/reconciliation/TradeRecordSummary.js';
import type { DayBatch, DayRow } from '../../storage/TradeRecordIndex.js';

/**
 * The latest version's figures of every trade record of a store-day, plus the batches that
 * delivered them (highest version wins, tie → later last_modified_at).
 */
export interface TradeRecords {
  /** Writes the batch's transactions under the version rule; returns the ids that were stale. */
  applyBatch(
    partnerId: string,
    storeId: string,
    businessDate: string,
    summaries: readonly TradeRecordSummary[],
    batch: DayBatch,
  ): Promise<Set<string>>;
  /** Every row of the store-day: batch rows first, then the transactions. */
  listDay(partnerId: string, storeId: string, businessDate: string): AsyncIterable<DayRow>;
}
