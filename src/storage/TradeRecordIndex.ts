import { odata, type TableClient, type TransactionAction } from '@azure/data-tables';
import { compactPayments, expandPayments, type TradeRecordSummary } from '../domain/reconciliation/TradeRecordSummary.js';
import { listEntityPages } from './listEntityPages.js';
import { isNotFound, isPreconditionFailed } from './storageErrors.js';
import { decodeKeyPart, encodeKeyPart, isDigestKeyPart, tableKey } from './tableKey.js';
import { entityProblems, type RowProblem } from './tableLimits.js';
import { writeVersionedRows } from './writeVersionedRows.js';

/** A batch that delivered transactions for the day, kept beside them for the diagnosis. */
export interface DayBatch {
  readonly batchId: string;
  readonly batchSeq: number;
  readonly receivedAt: string;
  readonly recordCount: number;
  /** Storage refused the batch part-way: none of its rows may count (see {@link TradeRecordIndex.markBatchFailed}). */
  readonly failed?: boolean;
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
  /** Only on rows whose key is a digest (an id too long to spell out in a key). */
  tradeRecordId?: string;
}

/**
 * Batch rows sort before every transaction row: `!` is below any character an encoded id uses.
 * So a listing of the day meets every batch (and learns which failed) before any transaction.
 */
const batchRowPrefix = '!batch|';
/** Just above every batch row key: `}` follows `|`. */
const batchRowsEnd = '!batch}';

interface BatchEntity {
  batchSeq: number;
  receivedAt?: string | null;
  recordCount?: number | null;
  failed?: boolean | null;
}

/**
 * A row of the day's partition as the listing returns it. A selected column a row does not have
 * comes back null (storage's answer to `$select`), hence `| null` on the optional ones.
 */
type DayEntity = { RowKey: string; tradeRecordId?: string | null } & Omit<SummaryEntity, 'tradeRecordId'> & BatchEntity;

/** The columns a day row is built from: a transaction's figures, a batch's fields. */
const dayColumns: readonly string[] = [
  'RowKey',
  ...['version', 'lastModifiedAt', 'sourceType', 'currency', 'total', 'tax', 'tip', 'itemRows', 'paymentRows', 'payments'],
  ...['batchSeq', 'batchId', 'tradeRecordId', 'receivedAt', 'recordCount', 'failed'],
];

/**
 * The trade-record index: one partition per (partner, store, business date), one row per
 * trade_record_id holding its latest version's figures, plus one row per batch of the day.
 * A store-day is reconciled by listing its partition once.
 */
export class TradeRecordIndex {
  constructor(private readonly table: TableClient) {}

  /**
   * What Table Storage would refuse in the row of a transaction (checked at validation, before the
   * first write of a push); empty when the row fits.
   */
  rowProblems(partnerId: string, storeId: string, businessDate: string, summary: TradeRecordSummary): RowProblem[] {
    let properties: SummaryEntity;
    try {
      properties = toIndexEntity(summary);
    } catch (error) {
      if (error instanceof RangeError) return [{ property: 'payments', message: error.message }];
      throw error;
    }
    return entityProblems({
      partitionKey: tableKey(partnerId, storeId, businessDate),
      rowKey: encodeKeyPart(summary.trade_record_id),
      ...properties,
    });
  }

  /** Writes the batch's transactions under the version rule; returns the ids that were stale. */
  async applyBatch(
    partnerId: string,
    storeId: string,
    businessDate: string,
    summaries: readonly TradeRecordSummary[],
    batch: DayBatch,
  ): Promise<Set<string>> {
    const partitionKey = tableKey(partnerId, storeId, businessDate);
    const idByRowKey = new Map<string, string>();
    const rows = summaries.map((s) => {
      const rowKey = encodeKeyPart(s.trade_record_id);
      idByRowKey.set(rowKey, s.trade_record_id);
      return {
        rowKey,
        version: s.version,
        last_modified_at: s.last_modified_at,
        properties: toIndexEntity(s) as unknown as Record<string, unknown>,
      };
    });
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
    return new Set([...staleRowKeys].map((rowKey) => idByRowKey.get(rowKey) ?? decodeKeyPart(rowKey)));
  }

  /**
   * Marks a batch of the day as failed, before anything else of a failed push is cleaned up:
   * from then on no reconciliation counts its rows, wherever the clean-up stops.
   */
  async markBatchFailed(partnerId: string, storeId: string, businessDate: string, batch: DayBatch): Promise<void> {
    await this.table.upsertEntity(
      {
        partitionKey: tableKey(partnerId, storeId, businessDate),
        rowKey: batchRowPrefix + encodeKeyPart(batch.batchId),
        batchSeq: batch.batchSeq,
        receivedAt: batch.receivedAt,
        recordCount: batch.recordCount,
        failed: true,
      },
      'Replace',
    );
  }

  /**
   * Deletes the transaction rows a batch wrote that are still its own (a newer version written by
   * another batch since stays). Returns the trade_record_ids whose row was removed.
   */
  async removeRowsOfBatch(partnerId: string, storeId: string, businessDate: string, batchId: string): Promise<Set<string>> {
    const partitionKey = tableKey(partnerId, storeId, businessDate);
    const removed = new Set<string>();
    const rows = this.table.listEntities<{ tradeRecordId?: string }>({
      queryOptions: { filter: odata`PartitionKey eq ${partitionKey} and batchId eq ${batchId}`, select: ['RowKey', 'tradeRecordId'] },
    });
    for await (const row of rows) {
      const rowKey = row.rowKey ?? '';
      try {
        await this.table.deleteEntity(partitionKey, rowKey, { etag: row.etag });
        removed.add(row.tradeRecordId ?? decodeKeyPart(rowKey));
      } catch (error) {
        // Gone already, or replaced by a newer version meanwhile: not this batch's row any more.
        if (!isNotFound(error) && !isPreconditionFailed(error)) throw error;
      }
    }
    return removed;
  }

  /** The batches that delivered transactions for the day (their rows only, not the transactions). */
  async listBatches(partnerId: string, storeId: string, businessDate: string): Promise<DayBatch[]> {
    const partitionKey = tableKey(partnerId, storeId, businessDate);
    const batches: DayBatch[] = [];
    for await (const entity of this.table.listEntities<BatchEntity>({
      queryOptions: { filter: odata`PartitionKey eq ${partitionKey} and RowKey ge ${batchRowPrefix} and RowKey lt ${batchRowsEnd}` },
    })) {
      batches.push(toDayBatch(entity.rowKey ?? '', entity));
    }
    return batches;
  }

  /** Writes transaction rows back under the version rule (after a failed batch's rows were removed). */
  async restore(partnerId: string, storeId: string, businessDate: string, summaries: readonly TradeRecordSummary[]): Promise<void> {
    const rows = summaries.map((s) => ({
      rowKey: encodeKeyPart(s.trade_record_id),
      version: s.version,
      last_modified_at: s.last_modified_at,
      properties: toIndexEntity(s) as unknown as Record<string, unknown>,
    }));
    await writeVersionedRows(this.table, tableKey(partnerId, storeId, businessDate), rows);
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
    for await (const entity of this.table.listEntities<{ batchSeq: number; receivedAt?: string; recordCount?: number; failed?: boolean }>({
      queryOptions: {
        filter: odata`PartitionKey eq ${partitionKey} and RowKey ge ${batchRowPrefix} and RowKey lt ${upper}`,
        select: ['RowKey', 'batchSeq', 'receivedAt', 'recordCount', 'failed'],
      },
    })) {
      batches.push({
        batchId: decodeKeyPart((entity.rowKey ?? '').slice(batchRowPrefix.length)),
        batchSeq: entity.batchSeq,
        receivedAt: entity.receivedAt ?? '',
        recordCount: entity.recordCount ?? 0,
        ...(entity.failed === true ? { failed: true } : {}),
      });
      if (batches.length > max) break;
    }
    return batches;
  }

  /**
   * Every row of the store-day, page by page: memory stays flat however large the day is (at
   * most two pages are held). The next page is requested as soon as one arrives, so storage
   * produces it while the caller works through the current one. Read without the SDK's entity
   * deserializer and with only the columns a row is built from (see {@link listEntityPages}).
   */
  async *listDay(partnerId: string, storeId: string, businessDate: string): AsyncIterable<DayRow> {
    const partitionKey = tableKey(partnerId, storeId, businessDate);
    const pages = listEntityPages(this.table, { filter: odata`PartitionKey eq ${partitionKey}`, select: dayColumns });
    const fetchNext = () => {
      const next = pages.next();
      // Awaited below; this only keeps an abandoned listing from reporting an unhandled rejection.
      next.catch(() => undefined);
      return next;
    };
    let pending = fetchNext();
    try {
      for (;;) {
        const result = await pending;
        if (result.done) return;
        const page = result.value as unknown as DayEntity[];
        pending = fetchNext();
        for (const entity of page) {
          const rowKey = entity.RowKey;
          if (rowKey.startsWith(batchRowPrefix)) {
            yield { type: 'batch', batch: toDayBatch(rowKey, entity) };
          } else {
            yield { type: 'transaction', summary: fromEntity(entity.tradeRecordId ?? decodeKeyPart(rowKey), entity) };
          }
        }
      }
    } finally {
      // A caller that stops early leaves no request running for a page nobody reads.
      void pages.return(undefined).catch(() => undefined);
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
    ...(isDigestKeyPart(encodeKeyPart(s.trade_record_id)) ? { tradeRecordId: s.trade_record_id } : {}),
  };
}

function toDayBatch(rowKey: string, entity: BatchEntity): DayBatch {
  return {
    batchId: decodeKeyPart(rowKey.slice(batchRowPrefix.length)),
    batchSeq: entity.batchSeq,
    receivedAt: entity.receivedAt ?? '',
    recordCount: entity.recordCount ?? 0,
    ...(entity.failed === true ? { failed: true } : {}),
  };
}

function fromEntity(tradeRecordId: string, e: Omit<SummaryEntity, 'tradeRecordId'>): TradeRecordSummary {
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
