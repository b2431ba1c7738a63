import { odata, type TableClient } from '@azure/data-tables';
import { isNotFound, isPreconditionFailed } from './storageErrors.js';

export type ApiKeyStatus = 'ACTIVE' | 'REVOKED';

/** What is stored of an API key: never the key itself, only its SHA-256. */
export interface ApiKeyRecord {
  readonly keyHash: string;
  readonly keyId: string;
  readonly partnerId: string;
  readonly status: ApiKeyStatus;
  readonly createdAt: string;
  readonly expiresAt: string | undefined;
  readonly revokedAt: string | undefined;
}

interface ApiKeyEntity {
  partitionKey: string;
  rowKey: string;
  keyId: string;
  partnerId: string;
  status: ApiKeyStatus;
  createdAt: string;
  expiresAt?: string;
  revokedAt?: string;
}

/** API keys, looked up by hash on every request (one point read). */
export class ApiKeyRepository {
  constructor(private readonly table: TableClient) {}

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    try {
      return toRecord(await this.table.getEntity<ApiKeyEntity>(keyHash, ''));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async create(record: Omit<ApiKeyRecord, 'status' | 'revokedAt'>): Promise<void> {
    const entity: ApiKeyEntity = {
      partitionKey: record.keyHash,
      rowKey: '',
      keyId: record.keyId,
      partnerId: record.partnerId,
      status: 'ACTIVE',
      createdAt: record.createdAt,
    };
    if (record.expiresAt) entity.expiresAt = record.expiresAt;
    await this.table.createEntity(entity);
  }

  /** Keys of one partner (HQ tool only: a scan of a small table). */
  async listForPartner(partnerId: string): Promise<ApiKeyRecord[]> {
    const keys: ApiKeyRecord[] = [];
    for await (const entity of this.table.listEntities<ApiKeyEntity>({
      queryOptions: { filter: odata`partnerId eq ${partnerId}` },
    })) {
      keys.push(toRecord(entity));
    }
    return keys.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /**
   * Revokes a key of the partner; false when the partner has no such key. A key is revoked once:
   * one already revoked keeps its `revokedAt`, also when several revocations run side by side (the
   * write is made under the ETag of the row read ACTIVE).
   */
  async revoke(partnerId: string, keyId: string, now: Date): Promise<boolean> {
    for (;;) {
      let found: (ApiKeyEntity & { etag: string }) | undefined;
      for await (const entity of this.table.listEntities<ApiKeyEntity>({
        queryOptions: { filter: odata`partnerId eq ${partnerId} and keyId eq ${keyId}` },
      })) {
        found = entity;
      }
      if (!found) return false;
      if (found.status === 'REVOKED') return true;
      try {
        await this.table.updateEntity(
          { partitionKey: found.partitionKey, rowKey: '', status: 'REVOKED', revokedAt: now.toISOString() },
          'Merge',
          { etag: found.etag },
        );
        return true;
      } catch (error) {
        if (!isPreconditionFailed(error)) throw error;
      }
    }
  }
}

function toRecord(entity: ApiKeyEntity): ApiKeyRecord {
  return {
    keyHash: entity.partitionKey,
    keyId: entity.keyId,
    partnerId: entity.partnerId,
    status: entity.status,
    createdAt: entity.createdAt,
    expiresAt: entity.expiresAt,
    revokedAt: entity.revokedAt,
  };
}
