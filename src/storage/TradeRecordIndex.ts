import { odata, type TableClient, type TransactionAction } from '@azure/data-tables';
import type { Versioned } from '../domain/reconciliation/compareVersions.js';
import { compactPayments, expandPayments, type TradeRecordSummary } from '../domain/reconciliation/TradeRecordSummary.js';
import type { StoreDay } from '../services/ports/TradeRecordHomes.js';
import { chooseSplitKeys, keySamplesOf, type BatchKeySamples } from './dayListingSplits.js';
import { fetchEntityPage, listEntityPages, type EntityContinuation } from './listEntityPages.js';
import { mergePages } from './mergePages.js';
import { isConflict, isNotFound, isPreconditionFailed } from './storageErrors.js';
import { decodeKeyPart, encodeKeyPart, isDigestKeyPart, tableKey } from './tableKey.js';
import { entityProblems, type RowProblem } from './tableLimits.js';
import { sameColumnsExcept, writeVersionedRows, type Unwritten } from './writeVersionedRows.js';

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
 * A transaction's row as stored, with the ETag that guards its change: the figures the day counts,
 * or the mark of a transaction that moved to another store-day (counted there, never here), with
 * the version that moved it, which keeps older versions from coming back.
 */
export type StoredTradeRecord =
  | { readonly etag: string; readonly summary: TradeRecordSummary; readonly movedTo?: undefined }
  | ({ readonly etag: string; readonly summary?: undefined } & MoveMark);

/** What the row of a transaction that moved away says: the version that moved it, and where to. */
export interface MoveMark {
  readonly stamp: Versioned;
  readonly movedTo: StoreDay;
}

/** The transactions of a batch that were not written, by trade_record_id. */
export interface AppliedBatch extends Unwritten<string> {
  /**
   * Transactions left as stored because another batch delivered the same stamp with the same
   * figures, by the batch_id of that batch; absent when there are none. The row keeps figures
   * only: whether the rest of the transaction is the same too is for the caller to read.
   */
  readonly keptFrom?: ReadonlyMap<string, string>;
}

/** A transaction's row says the same as another when all but the columns naming the batch that delivered it agree. */
const sameContent = sameColumnsExcept(['batchSeq', 'batchId'] satisfies (keyof SummaryEntity)[]);

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
  /** A few of the batch's row keys, to split the day's listing at (see dayListingSplits). Absent on rows written before. */
  keySamples?: string | null;
}

/**
 * A row of the day's partition as the listing returns it. A selected column a row does not have
 * comes back null (storage's answer to `$select`), hence `| null` on the optional ones.
 */
type DayEntity = { RowKey: string; tradeRecordId?: string | null; movedTo?: string | null } & Omit<SummaryEntity, 'tradeRecordId'> &
  BatchEntity;

/** The row of a transaction that moved to another store-day: its stamp and where it went (JSON). */
interface MovedEntity {
  version: number;
  lastModifiedAt: string;
  movedTo: string;
}

/** The columns a day row is built from: a transaction's figures, a batch's fields. */
const dayColumns: readonly string[] = [
  'RowKey',
  ...['version', 'lastModifiedAt', 'sourceType', 'currency', 'total', 'tax', 'tip', 'itemRows', 'paymentRows', 'payments'],
  ...['batchSeq', 'batchId', 'tradeRecordId', 'receivedAt', 'recordCount', 'failed', 'keySamples', 'movedTo'],
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

  /** Writes the batch's transactions under the version rule; returns the ids it left as stored, and why. */
  async applyBatch(
    partnerId: string,
    storeId: string,
    businessDate: string,
    summaries: readonly TradeRecordSummary[],
    batch: DayBatch,
  ): Promise<AppliedBatch> {
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
        keySamples: keySamplesOf(rows.map((row) => row.rowKey)),
      },
      'Replace',
    ];
    const written = await writeVersionedRows(this.table, partitionKey, rows, [batchRow], { sameContent });
    const idOf = (rowKey: string) => idByRowKey.get(rowKey) ?? decodeKeyPart(rowKey);
    const ids = (rowKeys: ReadonlySet<string>) => new Set([...rowKeys].map(idOf));
    const keptFrom = new Map<string, string>();
    for (const [rowKey, stored] of written.keptRows) {
      // A retry of this very batch finds its own rows: the same transactions.
      if (typeof stored.batchId === 'string' && stored.batchId !== batch.batchId) keptFrom.set(idOf(rowKey), stored.batchId);
    }
    return { stale: ids(written.staleRowKeys), conflicting: ids(written.conflictingRowKeys), ...(keptFrom.size > 0 ? { keptFrom } : {}) };
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
   * another batch since stays).
   */
  async removeRowsOfBatch(partnerId: string, storeId: string, businessDate: string, batchId: string): Promise<void> {
    const partitionKey = tableKey(partnerId, storeId, businessDate);
    const rows = this.table.listEntities({
      queryOptions: { filter: odata`PartitionKey eq ${partitionKey} and batchId eq ${batchId}`, select: ['RowKey'] },
    });
    for await (const row of rows) {
      try {
        await this.table.deleteEntity(partitionKey, row.rowKey ?? '', { etag: row.etag });
      } catch (error) {
        // Gone already, or replaced by a newer version meanwhile: not this batch's row any more.
        if (!isNotFound(error) && !isPreconditionFailed(error)) throw error;
      }
    }
  }

  /** The row of one transaction of the day with its ETag; undefined when the day holds none. */
  async getRecord(partnerId: string, storeId: string, businessDate: string, tradeRecordId: string): Promise<StoredTradeRecord | undefined> {
    try {
      const e = await this.table.getEntity<SummaryEntity & { movedTo?: string }>(
        tableKey(partnerId, storeId, businessDate),
        encodeKeyPart(tradeRecordId),
      );
      if (e.movedTo !== undefined) {
        return {
          etag: e.etag,
          stamp: { version: e.version, last_modified_at: e.lastModifiedAt },
          movedTo: JSON.parse(e.movedTo) as StoreDay,
        };
      }
      return { summary: fromEntity(tradeRecordId, e), etag: e.etag };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Deletes a transaction's row if it is still as read (`etag`); false when it changed or went meanwhile. */
  async removeRecord(partnerId: string, storeId: string, businessDate: string, tradeRecordId: string, etag: string): Promise<boolean> {
    try {
      await this.table.deleteEntity(tableKey(partnerId, storeId, businessDate), encodeKeyPart(tradeRecordId), { etag });
      return true;
    } catch (error) {
      if (isNotFound(error) || isPreconditionFailed(error)) return false;
      throw error;
    }
  }

  /**
   * Marks a transaction of the day as moved to `movedTo` by the version `stamp`: replaces the row
   * read with `etag`, or creates the mark where the day has no row (`etag` undefined), so that a
   * write of an older version still under way meets it. False when the row changed meanwhile.
   */
  async markMoved(
    partnerId: string,
    storeId: string,
    businessDate: string,
    tradeRecordId: string,
    moved: MoveMark,
    etag: string | undefined,
  ): Promise<boolean> {
    const entity: MovedEntity & { partitionKey: string; rowKey: string } = {
      partitionKey: tableKey(partnerId, storeId, businessDate),
      rowKey: encodeKeyPart(tradeRecordId),
      version: moved.stamp.version,
      lastModifiedAt: moved.stamp.last_modified_at,
      movedTo: JSON.stringify({ storeId: moved.movedTo.storeId, businessDate: moved.movedTo.businessDate }),
    };
    try {
      await (etag === undefined ? this.table.createEntity(entity) : this.table.updateEntity(entity, 'Replace', { etag }));
      return true;
    } catch (error) {
      if (isConflict(error) || isNotFound(error) || isPreconditionFailed(error)) return false;
      throw error;
    }
  }

  /** The batches that delivered transactions for the day (their rows only, not the transactions). */
  listBatches(partnerId: string, storeId: string, businessDate: string): Promise<DayBatch[]> {
    return this.listDayBatches(partnerId, storeId, businessDate, Number.POSITIVE_INFINITY);
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
    const batches: DayBatch[] = [];
    for await (const entity of this.table.listEntities<BatchEntity>({
      queryOptions: {
        filter: odata`PartitionKey eq ${partitionKey} and RowKey ge ${batchRowPrefix} and RowKey lt ${batchRowsEnd}`,
        select: ['RowKey', 'batchSeq', 'receivedAt', 'recordCount', 'failed'],
      },
    })) {
      batches.push(toDayBatch(entity.rowKey ?? '', entity));
      if (batches.length > max) break;
    }
    return batches;
  }

  /**
   * Every row of the store-day, page by page: memory stays flat however large the day is. Read
   * without the SDK's entity deserializer and with only the columns a row is built from (see
   * {@link fetchEntityPage}).
   *
   * The first page holds the day's batch rows (they sort first) and its first transactions. The
   * rest of the day is then listed in a few key ranges side by side (`maxDayListingRanges`),
   * split at the row keys each batch noted on its row, so a large day takes a few pages in a row
   * instead of one per thousand rows. The ranges start above the first page's last key and cover
   * every key above it once; the transactions come in the order their pages arrive. A day too
   * small to split, or whose batches noted no keys, is read on in one listing. Each listing
   * requests its next page as soon as one arrives, so storage works while the caller does.
   */
  async *listDay(partnerId: string, storeId: string, businessDate: string): AsyncIterable<DayRow> {
    const partitionKey = tableKey(partnerId, storeId, businessDate);
    const whole = { filter: odata`PartitionKey eq ${partitionKey}`, select: dayColumns };
    const samples: BatchKeySamples[] = [];
    let from: EntityContinuation | undefined;
    // Page by page until a page ends on a transaction: every batch row (and so every sample) is known then.
    for (;;) {
      const { rows, next } = await fetchEntityPage(this.table, whole, from);
      const page = rows as unknown as DayEntity[];
      for (const entity of page) {
        if (!entity.RowKey.startsWith(batchRowPrefix)) break;
        if (entity.keySamples) samples.push({ keySamples: entity.keySamples, recordCount: entity.recordCount ?? 0 });
      }
      const last = page.at(-1)?.RowKey;
      // Requested before this page is handed out, so storage works while the caller does.
      const rest = next && last !== undefined && !last.startsWith(batchRowPrefix) ? this.listRest(whole, next, last, samples) : undefined;
      try {
        yield* toDayRows(page);
        if (rest) for await (const restPage of rest) yield* toDayRows(restPage as unknown as DayEntity[]);
      } finally {
        // A caller that stops early asks for no further page; a request already sent finishes unread.
        void rest?.return(undefined).catch(() => undefined);
      }
      if (rest || !next) return;
      from = next;
    }
  }

  /** The day above `after`: in key ranges side by side, or on from `next` when the samples give no split. Requested at once. */
  private listRest(
    whole: { filter: string; select: readonly string[] },
    next: EntityContinuation,
    after: string,
    samples: readonly BatchKeySamples[],
  ): AsyncGenerator<Record<string, unknown>[]> {
    const splits = chooseSplitKeys(after, samples);
    if (splits.length === 0) return mergePages([listEntityPages(this.table, whole, next)]);
    // Range i runs from the i-th lower bound (the first one above `after`) to the next split, the last one to the end.
    return mergePages(
      [after, ...splits].map((lower, i) => {
        const upper = splits[i];
        const from = i === 0 ? odata`RowKey gt ${lower}` : odata`RowKey ge ${lower}`;
        const filter = `${whole.filter} and ${from}${upper === undefined ? '' : odata` and RowKey lt ${upper}`}`;
        return listEntityPages(this.table, { filter, select: whole.select });
      }),
    );
  }
}

function* toDayRows(page: readonly DayEntity[]): Iterable<DayRow> {
  for (const entity of page) {
    const rowKey = entity.RowKey;
    if (rowKey.startsWith(batchRowPrefix)) {
      yield { type: 'batch', batch: toDayBatch(rowKey, entity) };
    } else if (entity.movedTo) {
      // Counted on the store-day it moved to.
      continue;
    } else {
      yield { type: 'transaction', summary: fromEntity(entity.tradeRecordId ?? decodeKeyPart(rowKey), entity) };
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
