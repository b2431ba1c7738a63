import type { TableClient } from '@azure/data-tables';
import type { DailyClose } from '../domain/model/payloads.js';
import { closeComesAfter } from '../domain/reconciliation/closeComesAfter.js';
import { isNotFound } from './storageErrors.js';
import { tableKey } from './tableKey.js';
import type { RowReadAhead } from './RowReadAhead.js';
import { readRowAhead, writeIfCurrent } from './writeIfCurrent.js';

/** The daily close in effect for a store-day: the last one received. */
export interface StoredClose {
  readonly close: DailyClose;
  /** When HQ first received this close (its ledger time): orders corrections. */
  readonly receivedAt: string;
}

interface CloseEntity {
  body: string;
  receivedAt: string;
  closeBatchId: string;
}

/** One row per (partner, store, business date) holding the close that counts. */
export class DayCloseRepository {
  constructor(private readonly table: TableClient) {}

  async get(partnerId: string, storeId: string, businessDate: string): Promise<StoredClose | undefined> {
    try {
      const e = await this.table.getEntity<CloseEntity>(tableKey(partnerId, storeId), businessDate);
      return { close: JSON.parse(e.body) as DailyClose, receivedAt: e.receivedAt };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /**
   * Stores the close unless one that comes after it (`closeComesAfter`: received later) is already in
   * effect (a slow retry of an older correction must not undo a newer one). Returns whether this close is now the one in effect.
   */
  /** Starts reading the close row of a store-day for a `putIfLatest` soon after. */
  readAhead(partnerId: string, storeId: string, businessDate: string): RowReadAhead {
    return readRowAhead(this.table, tableKey(partnerId, storeId), businessDate);
  }

  async putIfLatest(partnerId: string, stored: StoredClose, readAhead?: RowReadAhead): Promise<boolean> {
    let inEffect = true;
    await writeIfCurrent<CloseEntity>(
      this.table,
      tableKey(partnerId, stored.close.store_id),
      stored.close.business_date,
      (current) => {
        if (current?.closeBatchId === stored.close.batch_id) return undefined;
        inEffect =
          !current ||
          closeComesAfter(
            { batchId: stored.close.batch_id, receivedAt: stored.receivedAt },
            { batchId: current.closeBatchId, receivedAt: current.receivedAt },
          );
        if (!inEffect) return undefined;
        return { body: JSON.stringify(stored.close), receivedAt: stored.receivedAt, closeBatchId: stored.close.batch_id };
      },
      undefined,
      readAhead,
    );
    return inEffect;
  }
}
