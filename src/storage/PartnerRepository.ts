import type { TableClient } from '@azure/data-tables';
import { isConflict, isNotFound } from './storageErrors.js';
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

/** Starts the key of a claim on a folded partner id; partner ids hold letters, digits, `.`, `_` and `-` only. */
const claimPrefix = '~';

function claimKey(partnerId: string): string {
  return claimPrefix + encodeKeyPart(partnerId.toLowerCase());
}

/** Partner accounts: one row per partner id, and one claim per id folded to lower case. */
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

  /**
   * Creates the partner; returns false when the id is already taken, in any letter case. Partner ids
   * are case-insensitive (a key names its partner by id, and `acme` beside `Acme` would split one
   * chain's data), so the partner's row is written with a claim on its folded id in one transaction:
   * of two creates of `Acme` and `acme` side by side, one fails. (A partner created by a release
   * before the claims has none: the HQ tool looks for such lookalikes in the list first.)
   */
  async create(partnerId: string, name: string, now: Date): Promise<boolean> {
    const partner: PartnerEntity & Record<string, unknown> = {
      partitionKey: partition,
      rowKey: encodeKeyPart(partnerId),
      name,
      status: 'ACTIVE',
      createdAt: now.toISOString(),
    };
    const claim = { partitionKey: partition, rowKey: claimKey(partnerId), partnerId };
    try {
      await this.table.submitTransaction([
        ['create', partner],
        ['create', claim],
      ]);
      return true;
    } catch (error) {
      if (isConflict(error)) return false;
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
      // The claims' keys start with `~`, after every character a partner id's key holds.
      queryOptions: { filter: `PartitionKey eq '${partition}' and RowKey lt '${claimPrefix}'` },
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
