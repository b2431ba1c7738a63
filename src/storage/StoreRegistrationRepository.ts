import type { TableClient } from '@azure/data-tables';
import { isConflict, isNotFound } from './storageErrors.js';
import { decodeKeyPart, encodeKeyPart } from './tableKey.js';

/** Which stores HQ has registered for which partner: the basis of tenant isolation. */
export class StoreRegistrationRepository {
  constructor(private readonly table: TableClient) {}

  async isRegistered(partnerId: string, storeId: string): Promise<boolean> {
    try {
      await this.table.getEntity(encodeKeyPart(partnerId), encodeKeyPart(storeId), { queryOptions: { select: ['RowKey'] } });
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /** The subset of `storeIds` that is NOT registered for the partner. */
  async unregisteredAmong(partnerId: string, storeIds: Iterable<string>): Promise<string[]> {
    const unique = [...new Set(storeIds)];
    const registered = await Promise.all(unique.map((storeId) => this.isRegistered(partnerId, storeId)));
    return unique.filter((_, i) => !registered[i]);
  }

  /** Registers stores; returns the ids that were new. */
  async register(partnerId: string, storeIds: readonly string[], now: Date): Promise<string[]> {
    const created: string[] = [];
    for (const storeId of new Set(storeIds)) {
      try {
        await this.table.createEntity({
          partitionKey: encodeKeyPart(partnerId),
          rowKey: encodeKeyPart(storeId),
          // Kept as a property too: a long store_id's key is a digest.
          storeId,
          registeredAt: now.toISOString(),
        });
        created.push(storeId);
      } catch (error) {
        if (!isConflict(error)) throw error;
      }
    }
    return created;
  }

  async listForPartner(partnerId: string): Promise<string[]> {
    const stores: string[] = [];
    for await (const entity of this.table.listEntities<{ storeId?: string }>({
      queryOptions: { filter: `PartitionKey eq '${encodeKeyPart(partnerId)}'`, select: ['RowKey', 'storeId'] },
    })) {
      stores.push(entity.storeId ?? decodeKeyPart(entity.rowKey ?? ''));
    }
    return stores;
  }
}
