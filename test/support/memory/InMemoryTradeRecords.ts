import type { TradeRecordSummary } from '../../../src/domain/reconciliation/TradeRecordSummary.js';
import { compareVersions, type Versioned } from '../../../src/domain/reconciliation/compareVersions.js';
import type { RowProblem } from '../../../src/storage/tableLimits.js';
import type { AppliedBatch, DayBatch, DayRow, MoveMark, StoredTradeRecord } from '../../../src/storage/TradeRecordIndex.js';
import type { TradeRecords } from '../../../src/services/ports/TradeRecords.js';

/** A transaction's row: the figures counted, or the mark of a move to another store-day. */
type Row = { readonly summary: TradeRecordSummary } | MoveMark;

interface Day {
  readonly batches: Map<string, DayBatch>;
  readonly rows: Map<string, Row>;
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
    const keptFrom = new Map<string, string>();
    for (const summary of summaries) {
      const current = day.rows.get(summary.trade_record_id);
      const order = current ? compareVersions(summary, stampOf(current)) : 1;
      if (order > 0) day.rows.set(summary.trade_record_id, { summary });
      else if (order < 0) stale.add(summary.trade_record_id);
      else if (current && (!('summary' in current) || figuresOf(current.summary) !== figuresOf(summary))) {
        conflicting.add(summary.trade_record_id);
      } else if (current && 'summary' in current && current.summary.batch_id !== batch.batchId) {
        keptFrom.set(summary.trade_record_id, current.summary.batch_id);
      }
    }
    day.batches.set(batch.batchId, batch);
    return Promise.resolve({ stale, conflicting, ...(keptFrom.size > 0 ? { keptFrom } : {}) });
  }

  /** A map holds any row: nothing to refuse. */
  rowProblems(): RowProblem[] {
    return [];
  }

  markBatchFailed(partnerId: string, storeId: string, businessDate: string, batch: DayBatch): Promise<void> {
    this.day(partnerId, storeId, businessDate).batches.set(batch.batchId, { ...batch, failed: true });
    return Promise.resolve();
  }

  removeRowsOfBatch(partnerId: string, storeId: string, businessDate: string, batchId: string): Promise<void> {
    const day = this.day(partnerId, storeId, businessDate);
    for (const [id, row] of day.rows) {
      if ('summary' in row && row.summary.batch_id === batchId) day.rows.delete(id);
    }
    return Promise.resolve();
  }

  getRecord(partnerId: string, storeId: string, businessDate: string, tradeRecordId: string): Promise<StoredTradeRecord | undefined> {
    const row = this.day(partnerId, storeId, businessDate).rows.get(tradeRecordId);
    if (!row) return Promise.resolve(undefined);
    return Promise.resolve('summary' in row ? { summary: row.summary, etag: etagOf(row) } : { ...row, etag: etagOf(row) });
  }

  markMoved(
    partnerId: string,
    storeId: string,
    businessDate: string,
    tradeRecordId: string,
    moved: MoveMark,
    etag: string | undefined,
  ): Promise<boolean> {
    const rows = this.day(partnerId, storeId, businessDate).rows;
    const row = rows.get(tradeRecordId);
    if (etag === undefined ? row !== undefined : !row || etagOf(row) !== etag) return Promise.resolve(false);
    rows.set(tradeRecordId, { stamp: moved.stamp, movedTo: moved.movedTo });
    return Promise.resolve(true);
  }

  removeRecord(partnerId: string, storeId: string, businessDate: string, tradeRecordId: string, etag: string): Promise<boolean> {
    const rows = this.day(partnerId, storeId, businessDate).rows;
    const row = rows.get(tradeRecordId);
    if (!row || etagOf(row) !== etag) return Promise.resolve(false);
    rows.delete(tradeRecordId);
    return Promise.resolve(true);
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
      const current = day.rows.get(summary.trade_record_id);
      if (!current || compareVersions(summary, stampOf(current)) > 0) day.rows.set(summary.trade_record_id, { summary });
    }
    return Promise.resolve();
  }

  async *listDay(partnerId: string, storeId: string, businessDate: string): AsyncIterable<DayRow> {
    const day = this.day(partnerId, storeId, businessDate);
    for (const batch of [...day.batches.values()]) yield await Promise.resolve({ type: 'batch' as const, batch });
    for (const row of [...day.rows.values()]) if ('summary' in row) yield { type: 'transaction', summary: row.summary };
  }

  private day(partnerId: string, storeId: string, businessDate: string): Day {
    const k = JSON.stringify([partnerId, storeId, businessDate]);
    let day = this.days.get(k);
    if (!day) {
      day = { batches: new Map(), rows: new Map() };
      this.days.set(k, day);
    }
    return day;
  }
}

function stampOf(row: Row): Versioned {
  return 'summary' in row ? row.summary : row.stamp;
}

/** What a summary says about its transaction: without its stamp (compared apart) and the batch that delivered it. */
function figuresOf(summary: TradeRecordSummary): string {
  const { batch_id: _batchId, batch_seq: _batchSeq, version: _version, last_modified_at: _lastModifiedAt, ...figures } = summary;
  return JSON.stringify(figures);
}

/** A row's ETag: what it holds, so that any change to the row changes it. */
function etagOf(row: Row): string {
  return JSON.stringify(row);
}
