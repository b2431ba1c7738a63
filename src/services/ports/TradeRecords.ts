import type { TradeRecordSummary } from '../../domain/reconciliation/TradeRecordSummary.js';
import type { RowProblem } from '../../storage/tableLimits.js';
import type { AppliedBatch, DayBatch, DayRow, MoveMark, StoredTradeRecord } from '../../storage/TradeRecordIndex.js';

/**
 * The latest version's figures of every trade record of a store-day, plus the batches that
 * delivered them (highest version wins, tie → later last_modified_at).
 */
export interface TradeRecords {
  /** Writes the batch's transactions under the version rule; returns the ids it left as stored, and why. */
  applyBatch(
    partnerId: string,
    storeId: string,
    businessDate: string,
    summaries: readonly TradeRecordSummary[],
    batch: DayBatch,
  ): Promise<AppliedBatch>;
  /** What the store would refuse in a transaction's row (checked before the first write); empty when it fits. */
  rowProblems(partnerId: string, storeId: string, businessDate: string, summary: TradeRecordSummary): RowProblem[];
  /** Marks a batch of the day failed: from then on no reconciliation counts its rows. */
  markBatchFailed(partnerId: string, storeId: string, businessDate: string, batch: DayBatch): Promise<void>;
  /** Removes the rows a batch wrote that are still its own. */
  removeRowsOfBatch(partnerId: string, storeId: string, businessDate: string, batchId: string): Promise<void>;
  /** One transaction's row of the day with its ETag; undefined when the day holds none. */
  getRecord(partnerId: string, storeId: string, businessDate: string, tradeRecordId: string): Promise<StoredTradeRecord | undefined>;
  /**
   * Marks a transaction of the day as moved to another store-day by the version `stamp`, replacing
   * the row read with `etag`, or where there is none (`etag` undefined); false when it changed meanwhile.
   */
  markMoved(
    partnerId: string,
    storeId: string,
    businessDate: string,
    tradeRecordId: string,
    moved: MoveMark,
    etag: string | undefined,
  ): Promise<boolean>;
  /** Deletes a transaction's row if it is still as read (`etag`); false when it changed or went meanwhile. */
  removeRecord(partnerId: string, storeId: string, businessDate: string, tradeRecordId: string, etag: string): Promise<boolean>;
  /** The batches that delivered transactions for the day. */
  listBatches(partnerId: string, storeId: string, businessDate: string): Promise<DayBatch[]>;
  /** The day's batches in batch-id order for HQ, at most `max` + 1 so a caller can tell that more exist. */
  listDayBatches(partnerId: string, storeId: string, businessDate: string, max: number): Promise<DayBatch[]>;
  /** Writes transaction rows back under the version rule (after a failed batch's rows were removed). */
  restore(partnerId: string, storeId: string, businessDate: string, summaries: readonly TradeRecordSummary[]): Promise<void>;
  /** Every row of the store-day: batch rows first, then the transactions it counts (none marked moved). */
  listDay(partnerId: string, storeId: string, businessDate: string): AsyncIterable<DayRow>;
}
