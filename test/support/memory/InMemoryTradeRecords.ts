import type { TradeRecordSummary } from '../../../src/domain/reconciliation/TradeRecordSummary.js';
import { compareVersions } from '../../../src/domain/reconciliation/isNewerVersion.js';
import type { RowProblem } from '../../../src/storage/tableLimits.js';
import type { AppliedBatch, DayBatch, DayRow } from '../../../src/storage/TradeRecordIndex.js';
import type { TradeRecords } from '../../../src/services/ports/TradeRecords.js';

interface Day {
  readonly batches: Map<string, DayBatch>;
  readonly records: Map<string, TradeRecordSummary>;
}

/** The trade-record index in maps per store-day, for unit tests of services. */
export class InMemoryTradeRecords implements TradeRecords {
  private readonly days = new Map<string, Day>();

  applyBatch(
    partnerId: string,
    storeId: string,
    businessDate: string,
    summaries: readonly TradeRecordSummary[],
    batch: DayBatch,
  ): Promise<AppliedBatch> {
    const day = this.day(partnerId, storeId, businessDate);
    const stale = new Set<string>();
    const conflicting = new Set<string>();
    for (const summary of summaries) {
      const current = day.records.get(summary.trade_record_id);
      const order = current ? compareVersions(summary, current) : 1;
      if (order > 0) day.records.set(summary.trade_record_id, summary);
      else if (order < 0) stale.add(summary.trade_record_id);
      else if (current && figuresOf(current) !== figuresOf(summary)) conflicting.add(summary.trade_record_id);
    }
    day.batches.set(batch.batchId, batch);
    return Promise.resolve({ stale, conflicting });
  }

  /** A map holds any row: nothing to refuse. */
  rowProblems(): RowProblem[] {
    return [];
  }

  markBatchFailed(partnerId: string, storeId: string, businessDate: string, batch: DayBatch): Promise<void> {
    this.day(partnerId, storeId, businessDate).batches.set(batch.batchId, { ...batch, failed: true });
    return Promise.resolve();
  }

  removeRowsOfBatch(partnerId: string, storeId: string, businessDate: string, batchId: string): Promise<Set<string>> {
    const day = this.day(partnerId, storeId, businessDate);
    const removed = new Set<string>();
    for (const [id, summary] of day.records) {
      if (summary.batch_id !== batchId) continue;
      day.records.delete(id);
      removed.add(id);
    }
    return Promise.resolve(removed);
  }

  listBatches(partnerId: string, storeId: string, businessDate: string): Promise<DayBatch[]> {
    return Promise.resolve([...this.day(partnerId, storeId, businessDate).batches.values()]);
  }

  listDayBatches(partnerId: string, storeId: string, businessDate: string, max: number): Promise<DayBatch[]> {
    const batches = [...this.day(partnerId, storeId, businessDate).batches.values()].sort((a, b) =>
      a.batchId < b.batchId ? -1 : a.batchId > b.batchId ? 1 : 0,
    );
    return Promise.resolve(batches.slice(0, max + 1));
  }

  restore(partnerId: string, storeId: string, businessDate: string, summaries: readonly TradeRecordSummary[]): Promise<void> {
    const day = this.day(partnerId, storeId, businessDate);
    for (const summary of summaries) {
      const current = day.records.get(summary.trade_record_id);
      if (!current || compareVersions(summary, current) > 0) day.records.set(summary.trade_record_id, summary);
    }
    return Promise.resolve();
  }

  async *listDay(partnerId: string, storeId: string, businessDate: string): AsyncIterable<DayRow> {
    const day = this.day(partnerId, storeId, businessDate);
    for (const batch of [...day.batches.values()]) yield await Promise.resolve({ type: 'batch' as const, batch });
    for (const summary of [...day.records.values()]) yield { type: 'transaction', summary };
  }

  private day(partnerId: string, storeId: string, businessDate: string): Day {
    const k = JSON.stringify([partnerId, storeId, businessDate]);
    let day = this.days.get(k);
    if (!day) {
      day = { batches: new Map(), records: new Map() };
      this.days.set(k, day);
    }
    return day;
  }
}

/** What a summary says about its transaction: without its stamp (compared apart) and the batch that delivered it. */
function figuresOf(summary: TradeRecordSummary): string {
  const { batch_id: _batchId, batch_seq: _batchSeq, version: _version, last_modified_at: _lastModifiedAt, ...figures } = summary;
  return JSON.stringify(figures);
}
