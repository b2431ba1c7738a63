import { odata, type TableClient } from '@azure/data-tables';
import { isNotFound } from './storageErrors.js';

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

  /** Revokes a key of the partner; false when the partner has no such key. */
  async revoke(partnerId: string, keyId: string, now: Date): Promise<boolean> {
    const key = (await this.listForPartner(partnerId)).find((k) => k.keyId === keyId);
    if (!key) return false;
    await this.table.updateEntity({ partitionKey: key.keyHash, rowKey: '', status: 'REVOKED', revokedAt: now.toISOString() }, 'Merge');
    return true;
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
