import { odata, type TableClient } from '@azure/data-tables';
import type { Store } from '../domain/model/payloads.js';
import { isStampTooFarAhead } from '../domain/validation/isStampTooFarAhead.js';
import { isNotFound } from './storageErrors.js';
import { encodeKeyPart } from './tableKey.js';
import { entityProblems, type RowProblem } from './tableLimits.js';
import { writeVersionedRows } from './writeVersionedRows.js';

/**
 * Store master data per partner. Stores carry no version, so the later last_modified_at wins
 * (version 0 for all, which reduces the version rule to that comparison), and on equal ones the
 * copy received last.
 */
export class StoreMasterRepository {
  constructor(private readonly table: TableClient) {}

  async get(partnerId: string, storeId: string): Promise<Store | undefined> {
    try {
      const entity = await this.table.getEntity<{ body: string }>(encodeKeyPart(partnerId), encodeKeyPart(storeId), {
        queryOptions: { select: ['body'] },
      });
      return JSON.parse(entity.body) as Store;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async list(partnerId: string): Promise<Store[]> {
    const stores: Store[] = [];
    for await (const entity of this.table.listEntities<{ body: string }>({
      queryOptions: { filter: odata`PartitionKey eq ${encodeKeyPart(partnerId)}`, select: ['body'] },
    })) {
      stores.push(JSON.parse(entity.body) as Store);
    }
    return stores;
  }

  /** What Table Storage would refuse in a store's row (checked at validation); empty when it fits. */
  storeProblems(partnerId: string, store: Store): RowProblem[] {
    return entityProblems({ partitionKey: encodeKeyPart(partnerId), rowKey: encodeKeyPart(store.store_id), ...storeProperties(store) });
  }

  /**
   * Upserts stores; returns the store_ids not written because a later copy is stored. A store has
   * no version, so a copy with the stored last_modified_at replaces the stored one: a correction
   * sent without moving the timestamp is applied, not dropped. A stored copy stamped too far after
   * `now` (accepted before pushes were held to the bound) is replaced by any copy: nothing could
   * correct it otherwise.
   */
  async upsert(partnerId: string, stores: readonly Store[], now: Date): Promise<Set<string>> {
    const rows = stores.map((store) => ({
      rowKey: encodeKeyPart(store.store_id),
      version: 0,
      last_modified_at: store.last_modified_at,
      properties: storeProperties(store),
    }));
    const { staleRowKeys } = await writeVersionedRows(this.table, encodeKeyPart(partnerId), rows, [], {
      replaceOnTie: true,
      voidStamp: (stored) => isStampTooFarAhead(stored.last_modified_at, now),
    });
    return new Set(stores.filter((s) => staleRowKeys.has(encodeKeyPart(s.store_id))).map((s) => s.store_id));
  }
}

function storeProperties(store: Store): Record<string, unknown> {
  return { version: 0, lastModifiedAt: store.last_modified_at, body: JSON.stringify(store), currency: store.currency };
}
