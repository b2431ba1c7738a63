import type { TableClient } from '@azure/data-tables';
import { isNotFound } from './storageErrors.js';
import { decodeKeyPart, encodeKeyPart } from './tableKey.js';
import type { PartnerChanges } from '../services/ports/Partners.js';

export type PartnerStatus = 'ACTIVE' | 'INACTIVE';

export interface Partner {
  readonly partnerId: string;
  readonly name: string;
  readonly status: PartnerStatus;
  /** HQ's own /trade-records limit for this partner; the configured default applies when absent. */
  readonly rateLimitPerMinute: number | undefined;
  readonly createdAt: string;
}

interface PartnerEntity {
  partitionKey: string;
  rowKey: string;
  name: string;
  status: PartnerStatus;
  rateLimitPerMinute?: number;
  createdAt: string;
}

const partition = 'partner';

/** Partner accounts: one row per partner id. */
export class PartnerRepository {
  constructor(private readonly table: TableClient) {}

  async get(partnerId: string): Promise<Partner | undefined> {
    try {
      const entity = await this.table.getEntity<PartnerEntity>(partition, encodeKeyPart(partnerId));
      return toPartner(entity);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Creates the partner; returns false when the id is already taken. */
  async create(partnerId: string, name: string, now: Date): Promise<boolean> {
    try {
      await this.table.createEntity<PartnerEntity>({
        partitionKey: partition,
        rowKey: encodeKeyPart(partnerId),
        name,
        status: 'ACTIVE',
        createdAt: now.toISOString(),
      });
      return true;
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 409) return false;
      throw error;
    }
  }

  async update(partnerId: string, changes: PartnerChanges): Promise<boolean> {
    const { rateLimitPerMinute, ...rest } = changes;
    // A merge cannot remove a property: the default is stored as 0, which no partner's own limit is.
    const limit = rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: rateLimitPerMinute ?? 0 };
    try {
      await this.table.updateEntity({ partitionKey: partition, rowKey: encodeKeyPart(partnerId), ...rest, ...limit }, 'Merge', {
        etag: '*',
      });
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async list(): Promise<Partner[]> {
    const partners: Partner[] = [];
    for await (const entity of this.table.listEntities<PartnerEntity>({
      queryOptions: { filter: `PartitionKey eq '${partition}'` },
    })) {
      partners.push(toPartner(entity));
    }
    return partners;
  }
}

function toPartner(entity: PartnerEntity): Partner {
  return {
    partnerId: decodeKeyPart(entity.rowKey),
    name: entity.name,
    status: entity.status,
    rateLimitPerMinute:
      typeof entity.rateLimitPerMinute === 'number' && entity.rateLimitPerMinute > 0 ? entity.rateLimitPerMinute : undefined,
    createdAt: entity.createdAt,
  };
}
