import type { TableClient } from '@azure/data-tables';
import { isConflict, isNotFound } from './storageErrors.js';
import { decodeKeyPart, encodeKeyPart } from './tableKey.js';
import { writeIfCurrent } from './writeIfCurrent.js';
import { compareCodeUnits } from '../domain/compareCodeUnits.js';

/**
 * ACTIVE: the partner may send the store's data. RETIRED: HQ took the store away (closed for good,
 * or registered by mistake); what it sent stays, and HQ may make it ACTIVE again.
 */
export type StoreRegistrationStatus = 'ACTIVE' | 'RETIRED';

export interface StoreRegistration {
  readonly storeId: string;
  readonly registeredAt: string | null;
  readonly status: StoreRegistrationStatus;
  /** When the store was retired; null while it is ACTIVE. */
  readonly retiredAt: string | null;
}

interface RegistrationEntity {
  readonly storeId?: string;
  readonly registeredAt?: string;
  readonly status?: string;
  readonly retiredAt?: string;
}

const registrationFields = ['storeId', 'registeredAt', 'status', 'retiredAt'] as const;

/** Which stores HQ has registered for which partner: the basis of tenant isolation. */
export class StoreRegistrationRepository {
  constructor(private readonly table: TableClient) {}

  async getRegistration(partnerId: string, storeId: string): Promise<StoreRegistration | undefined> {
    try {
      const entity = await this.table.getEntity<RegistrationEntity>(encodeKeyPart(partnerId), encodeKeyPart(storeId), {
        queryOptions: { select: [...registrationFields] },
      });
      return toRegistration(storeId, entity);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** The status of each of `storeIds` that is registered for the partner; an id not registered is absent. */
  async statusesAmong(partnerId: string, storeIds: Iterable<string>): Promise<Map<string, StoreRegistrationStatus>> {
    const unique = [...new Set(storeIds)];
    const found = await Promise.all(unique.map((storeId) => this.getRegistration(partnerId, storeId)));
    return new Map(found.flatMap((registration) => (registration ? [[registration.storeId, registration.status] as const] : [])));
  }

  /** Registers stores (ACTIVE); returns the ids that were new. A store registered already keeps its status. */
  async register(partnerId: string, storeIds: readonly string[], now: Date): Promise<string[]> {
    const created: string[] = [];
    for (const storeId of new Set(storeIds)) {
      try {
        await this.table.createEntity({
          partitionKey: encodeKeyPart(partnerId),
          rowKey: encodeKeyPart(storeId),
          ...toEntity({ storeId, registeredAt: now.toISOString(), status: 'ACTIVE', retiredAt: null }),
        });
        created.push(storeId);
      } catch (error) {
        if (!isConflict(error)) throw error;
      }
    }
    return created;
  }

  /**
   * Sets a registered store's status, guarded by the row's ETag: retiring notes when, reactivating
   * clears it. A store that has the status already is left as it is (a repeat keeps the first
   * retirement's time). Undefined when the store is not registered: a registration is never
   * created here.
   */
  async setStatus(partnerId: string, storeId: string, status: StoreRegistrationStatus, now: Date): Promise<StoreRegistration | undefined> {
    let result: StoreRegistration | undefined;
    await writeIfCurrent<RegistrationEntity>(this.table, encodeKeyPart(partnerId), encodeKeyPart(storeId), (current) => {
      if (current === undefined) {
        result = undefined;
        return undefined;
      }
      const stored = toRegistration(storeId, current);
      if (stored.status === status) {
        result = stored;
        return undefined;
      }
      result = { ...stored, status, retiredAt: status === 'RETIRED' ? now.toISOString() : null };
      return toEntity(result);
    });
    return result;
  }

  /** The partner's registrations with their time and status, by store id. */
  async listRegistrations(partnerId: string): Promise<StoreRegistration[]> {
    const registrations: StoreRegistration[] = [];
    for await (const entity of this.table.listEntities<RegistrationEntity>({
      queryOptions: { filter: `PartitionKey eq '${encodeKeyPart(partnerId)}'`, select: ['RowKey', ...registrationFields] },
    })) {
      registrations.push(toRegistration(storeIdOf(entity), entity));
    }
    return registrations.sort((a, b) => compareCodeUnits(a.storeId, b.storeId));
  }
}

/**
 * The row's own properties for a registration (not the SDK's metadata a row read carries). The
 * store id is kept as a property too: a long store_id's key is a digest.
 */
function toEntity(registration: StoreRegistration): RegistrationEntity {
  const { storeId, registeredAt, status, retiredAt } = registration;
  return { storeId, ...(registeredAt === null ? {} : { registeredAt }), status, ...(retiredAt === null ? {} : { retiredAt }) };
}

/** A registration as stored; a row written before statuses existed is ACTIVE. */
function toRegistration(storeId: string, entity: RegistrationEntity): StoreRegistration {
  const retired = entity.status === 'RETIRED';
  return {
    storeId,
    registeredAt: entity.registeredAt ?? null,
    status: retired ? 'RETIRED' : 'ACTIVE',
    retiredAt: retired ? (entity.retiredAt ?? null) : null,
  };
}

/** A registration's store id: its property, or its key for rows written before the property was (never digests then). */
function storeIdOf(entity: { rowKey?: string; storeId?: string }): string {
  return entity.storeId ?? decodeKeyPart(entity.rowKey ?? '');
}
