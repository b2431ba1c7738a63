import { odata, type TableClient } from '@azure/data-tables';
import type { StoreDayRow } from '../reports/ReconciledStoreDay.js';
import type { StoreDaySales } from '../reports/StoreDaySales.js';
import { decodeKeyPart, encodeKeyPart, isDigestKeyPart, tableKey } from './tableKey.js';
import { fromChunkedProperties, toCompactProperties } from './chunkedJson.js';
import type { RowReadAhead } from './RowReadAhead.js';
import { isNotFound } from './storageErrors.js';
import { readRowAhead, writeIfCurrent } from './writeIfCurrent.js';

/** Totals of a row stored before totals were kept with it: none (a rebuild adds them). */
const noSales: StoreDaySales = { sales: [], unmapped: [] };

/**
 * The row is JSON in `row0`, `row1`, … (gzip-compressed once it is long: a day's held-back totals
 * can run to a thousand codes); rows written before that keep it whole in `row`.
 */
interface StoreDayEntity {
  row?: string;
  /** The build's stamp (buildStamp); rows written before builds were stamped so keep their instant here. */
  generatedAt: string;
}

/**
 * One row per reconciled store-day, in one partition per (partner, business date): the store_days
 * file of a partner's day is written from a single partition listing.
 */
export class ReportStoreDayRepository {
  constructor(private readonly table: TableClient) {}

  /** Stores the row unless a row from a later build (a greater stamp) is already there. Returns whether it wrote. */
  async putIfNewer(partnerId: string, businessDate: string, row: StoreDayRow, stamp: string, readAhead?: RowReadAhead): Promise<boolean> {
    return writeIfCurrent<StoreDayEntity>(
      this.table,
      tableKey(partnerId, businessDate),
      encodeKeyPart(row.store_id),
      (current) => {
        if (current && current.generatedAt > stamp) return undefined;
        return { ...toCompactProperties('row', row), generatedAt: stamp };
      },
      undefined,
      readAhead,
    );
  }

  /** Starts reading a store-day's row for a `putIfNewer` soon after. */
  readAhead(partnerId: string, businessDate: string, storeId: string): RowReadAhead {
    return readRowAhead(this.table, tableKey(partnerId, businessDate), encodeKeyPart(storeId));
  }

  /**
   * The partner's store-day rows with their business dates, from `from` to `to` inclusive (either
   * may be absent): one range query over the partner's partitions, which sort by date.
   */
  async *listRange(partnerId: string, from?: string, to?: string): AsyncIterable<{ businessDate: string; row: StoreDayRow }> {
    const prefix = `${encodeKeyPart(partnerId)}|`;
    // `}` follows `|` in code-point order: every key of the partner sorts below it.
    const lower = prefix + (from ?? '');
    const upper = to === undefined ? `${encodeKeyPart(partnerId)}}` : `${prefix}${to}~`;
    for await (const entity of this.table.listEntities<StoreDayEntity>({
      queryOptions: { filter: odata`PartitionKey ge ${lower} and PartitionKey lt ${upper}` },
    })) {
      const businessDate = decodeKeyPart((entity.partitionKey ?? '').slice(prefix.length));
      yield { businessDate, row: rowOf(entity) };
    }
  }

  /** One store-day's row (a point read); undefined when the day has none. */
  async get(partnerId: string, businessDate: string, storeId: string): Promise<StoreDayRow | undefined> {
    try {
      return rowOf(await this.table.getEntity<StoreDayEntity>(tableKey(partnerId, businessDate), encodeKeyPart(storeId)));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Every store-day row of the partner's business date. */
  async list(partnerId: string, businessDate: string): Promise<StoreDayRow[]> {
    const rows: StoreDayRow[] = [];
    const partitionKey = tableKey(partnerId, businessDate);
    for await (const entity of this.table.listEntities<StoreDayEntity>({
      queryOptions: { filter: odata`PartitionKey eq ${partitionKey}` },
    })) {
      rows.push(rowOf(entity));
    }
    return rows;
  }
}

/**
 * The store a row belongs to: its key is the authority, except where the key is a digest of a long
 * store id (then the row's own store_id, written with it, says it).
 */
function storeIdOf(rowKey: string | undefined, row: Partial<StoreDayRow>): string {
  const key = rowKey ?? '';
  return isDigestKeyPart(key) ? (row.store_id ?? '') : decodeKeyPart(key);
}

/** The stored row, from its chunks or, written before them, its one property. */
function rowOf(entity: StoreDayEntity & { rowKey?: string }): StoreDayRow {
  const row = (fromChunkedProperties('row', entity as unknown as Record<string, unknown>) ??
    JSON.parse(entity.row ?? '{}')) as Partial<StoreDayRow> & Omit<StoreDayRow, 'sales'>;
  return { ...row, sales: row.sales ?? noSales, store_id: storeIdOf(entity.rowKey, row) };
}
