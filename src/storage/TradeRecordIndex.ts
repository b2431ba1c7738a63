import { odata, type TableClient, type TransactionAction } from '@azure/data-tables';
import { compactPayments, expandPayments, type TradeRecordSummary } from '../domain/reconciliation/TradeRecordSummary.js';
import { decodeKeyPart, encodeKeyPart, tableKey } from './tableKey.js';
import { writeVersionedRows } from './writeVersionedRows.js';

/** A batch that delivered transactions for the day, kept beside them for the diagnosis. */
export interface DayBatch {
  readonly batchId: string;
  readonly batchSeq: number;
  readonly receivedAt: string;
  readonly recordCount: number;
}

export type DayRow =
  { readonly type: 'transaction'; readonly summary: TradeRecordSummary } | { readonly type: 'batch'; readonly batch: DayBatch };

export interface SummaryEntity {
  version: number;
  lastModifiedAt: string;
  sourceType: string;
  currency: string;
  total: string;
  tax: string;
  tip: string;
  itemRows: number;
  paymentRows: number;
  payments: string;
  batchSeq: number;
  batchId: string;
}

/** Batch rows sort before every transaction row: `!` is below any character an encoded id uses. */
const batchRowPrefix = '!batch|';

/**
 * The trade-record index: one partition per (partner, store, business date), one row per
 * trade_record_id holding its latest version's figures, plus one row per batch of the day.
 * A store-day is reconciled by listing its partition once.
 */
export class TradeRecordIndex {
  constructor(private readonly table: TableClient) {}

  /** Writes the batch's transactions under the version rule; returns the ids that were stale. */
  async applyBatch(
    partnerId: string,
    storeId: string,
    businessDate: string,
    summaries: readonly TradeRecordSummary[],
    batch: DayBatch,
  ): Promise<Set<string>> {
    const partitionKey = tableKey(partnerId, storeId, businessDate);
    const rows = summaries.map((s) => ({
      rowKey: encodeKeyPart(s.trade_record_id),
      version: s.version,
      last_modified_at: s.last_modified_at,
      properties: toIndexEntity(s) as unknown as Record<string, unknown>,
    }));
    const batchRow: TransactionAction = [
      'upsert',
      {
        partitionKey,
        rowKey: batchRowPrefix + encodeKeyPart(batch.batchId),
        batchSeq: batch.batchSeq,
        receivedAt: batch.receivedAt,
        recordCount: batch.recordCount,
      },
      'Replace',
    ];
    const { staleRowKeys } = await writeVersionedRows(this.table, partitionKey, rows, [batchRow]);
    return new Set([...staleRowKeys].map(decodeKeyPart));
  }

  /**
   * The batch rows of the store-day only (a key range at the head of its partition), at most
   * `max` + 1 so a caller can tell that more exist.
   */
  async listDayBatches(partnerId: string, storeId: string, businessDate: string, max: number): Promise<DayBatch[]> {
    const partitionKey = tableKey(partnerId, storeId, businessDate);
    // `}` follows `|` in the code order: every row key that starts with the prefix lies in between.
    const upper = `${batchRowPrefix.slice(0, -1)}}`;
    const batches: DayBatch[] = [];
    for await (const entity of this.table.listEntities<{ batchSeq: number; receivedAt?: string; recordCount?: number }>({
      queryOptions: {
        filter: odata`PartitionKey eq ${partitionKey} and RowKey ge ${batchRowPrefix} and RowKey lt ${upper}`,
        select: ['RowKey', 'batchSeq', 'receivedAt', 'recordCount'],
      },
    })) {
      batches.push({
        batchId: decodeKeyPart((entity.rowKey ?? '').slice(batchRowPrefix.length)),
        batchSeq: entity.batchSeq,
        receivedAt: entity.receivedAt ?? '',
        recordCount: entity.recordCount ?? 0,
      });
      if (batches.length > max) break;
    }
    return batches;
  }

  /**
   * Every row of the store-day, page by page: memory stays flat however large the day is (at
   * most two pages are held). The next page is requested as soon as one arrives, so storage
   * produces it while the caller works through the current one.
   */
  async *listDay(partnerId: string, storeId: string, businessDate: string): AsyncIterable<DayRow> {
    const partitionKey = tableKey(partnerId, storeId, businessDate);
    const pages = this.table
      .listEntities<SummaryEntity & { batchSeq: number; receivedAt?: string; recordCount?: number }>({
        queryOptions: { filter: odata`PartitionKey eq ${partitionKey}` },
      })
      .byPage();
    const pageIterator = pages[Symbol.asyncIterator]();
    const fetchNext = () => {
      const next = pageIterator.next();
      // Awaited below; this only keeps an abandoned listing from reporting an unhandled rejection.
      next.catch(() => undefined);
      return next;
    };
    let pending = fetchNext();
    for (;;) {
      const result = await pending;
      if (result.done) return;
      const page = result.value;
      pending = fetchNext();
      for (const entity of page) {
        const rowKey = entity.rowKey ?? '';
        if (rowKey.startsWith(batchRowPrefix)) {
          yield {
            type: 'batch',
            batch: {
              batchId: decodeKeyPart(rowKey.slice(batchRowPrefix.length)),
              batchSeq: entity.batchSeq,
              receivedAt: entity.receivedAt ?? '',
              recordCount: entity.recordCount ?? 0,
            },
          };
        } else {
          yield { type: 'transaction', summary: fromEntity(decodeKeyPart(rowKey), entity) };
        }
      }
    }
  }
}

/** The index row of a transaction (also what the benchmark's storage floor writes). */
export function toIndexEntity(s: TradeRecordSummary): SummaryEntity {
  return {
    version: s.version,
    lastModifiedAt: s.last_modified_at,
    sourceType: s.source_transaction_type,
    currency: s.currency,
    total: s.total_amount,
    tax: s.tax_amount,
    tip: s.tip_amount,
    itemRows: s.item_row_count,
    paymentRows: s.payment_row_count,
    payments: compactPayments(s.payments),
    batchSeq: s.batch_seq,
    batchId: s.batch_id,
  };
}

function fromEntity(tradeRecordId: string, e: SummaryEntity): TradeRecordSummary {
  return {
    trade_record_id: tradeRecordId,
    version: e.version,
    last_modified_at: e.lastModifiedAt,
    source_transaction_type: e.sourceType,
    currency: e.currency,
    total_amount: e.total,
    tax_amount: e.tax,
    tip_amount: e.tip,
    item_row_count: e.itemRows,
    payment_row_count: e.paymentRows,
    payments: expandPayments(e.payments),
    batch_seq: e.batchSeq,
    batch_id: e.batchId,
  };
}
