import type { TableClient } from '@azure/data-tables';
import { isConflict, isNotFound } from './storageErrors.js';
import { decodeKeyPart, encodeKeyPart } from './tableKey.js';

export interface StoreRegistration {
  readonly storeId: string;
  readonly registeredAt: string | null;
}

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

  async getRegistration(partnerId: string, storeId: string): Promise<StoreRegistration | undefined> {
    try {
      const entity = await this.table.getEntity<{ registeredAt?: string }>(encodeKeyPart(partnerId), encodeKeyPart(storeId), {
        queryOptions: { select: ['registeredAt'] },
      });
      return { storeId, registeredAt: entity.registeredAt ?? null };
    } catch (error) {
      if (isNotFound(error)) return undefined;
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

  /** The partner's registrations with their time, by store id. */
  async listRegistrations(partnerId: string): Promise<StoreRegistration[]> {
    const registrations: StoreRegistration[] = [];
    for await (const entity of this.table.listEntities<{ storeId?: string; registeredAt?: string }>({
      queryOptions: { filter: `PartitionKey eq '${encodeKeyPart(partnerId)}'`, select: ['RowKey', 'storeId', 'registeredAt'] },
    })) {
      registrations.push({ storeId: storeIdOf(entity), registeredAt: entity.registeredAt ?? null });
    }
    return registrations.sort((a, b) => (a.storeId < b.storeId ? -1 : a.storeId > b.storeId ? 1 : 0));
  }

  async listForPartner(partnerId: string): Promise<string[]> {
    const stores: string[] = [];
    for await (const entity of this.table.listEntities<{ storeId?: string }>({
      queryOptions: { filter: `PartitionKey eq '${encodeKeyPart(partnerId)}'`, select: ['RowKey', 'storeId'] },
    })) {
      stores.push(storeIdOf(entity));
    }
    return stores;
  }
}

/** A registration's store id: its property, or its key for rows written before the property was (never digests then). */
function storeIdOf(entity: { rowKey?: string; storeId?: string }): string {
  return entity.storeId ?? decodeKeyPart(entity.rowKey ?? '');
}
