import type { TableClient } from '@azure/data-tables';
import { isConflict, isNotFound } from './storageErrors.js';

export type OperatorRole = 'viewer' | 'admin';
export type OperatorKeyStatus = 'ACTIVE' | 'REVOKED';

/** What is stored of an HQ operator key: never the key itself, only its SHA-256. */
export interface OperatorKeyRecord {
  readonly keyHash: string;
  readonly keyId: string;
  /** The operator (a person or a tool) the key was issued to. */
  readonly operator: string;
  readonly role: OperatorRole;
  readonly status: OperatorKeyStatus;
  readonly createdAt: string;
  readonly expiresAt: string | undefined;
  readonly revokedAt: string | undefined;
}

interface OperatorKeyEntity {
  partitionKey: string;
  rowKey: string;
  keyId: string;
  operator: string;
  role: OperatorRole;
  status: OperatorKeyStatus;
  createdAt: string;
  expiresAt?: string;
  revokedAt?: string;
}

/**
 * Operator keys, looked up by hash on every HQ request (one point read). A table of their own, so
 * an operator key can never be taken for a partner key or the other way round.
 */
export class OperatorKeyRepository {
  constructor(private readonly table: TableClient) {}

  async findByHash(keyHash: string): Promise<OperatorKeyRecord | undefined> {
    try {
      return toRecord(await this.table.getEntity<OperatorKeyEntity>(keyHash, ''));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Stores a new key; false when the hash is already taken (never for a freshly drawn key). */
  async create(record: Omit<OperatorKeyRecord, 'status' | 'revokedAt'>): Promise<boolean> {
    const entity: OperatorKeyEntity = {
      partitionKey: record.keyHash,
      rowKey: '',
      keyId: record.keyId,
      operator: record.operator,
      role: record.role,
      status: 'ACTIVE',
      createdAt: record.createdAt,
    };
    if (record.expiresAt) entity.expiresAt = record.expiresAt;
    try {
      await this.table.createEntity(entity);
      return true;
    } catch (error) {
      if (isConflict(error)) return false;
      throw error;
    }
  }

  /** Every operator key, by operator then creation time (HQ tool: a scan of a small table). */
  async list(): Promise<OperatorKeyRecord[]> {
    const keys: OperatorKeyRecord[] = [];
    for await (const entity of this.table.listEntities<OperatorKeyEntity>()) keys.push(toRecord(entity));
    return keys.sort((a, b) => (a.operator === b.operator ? a.createdAt.localeCompare(b.createdAt) : a.operator < b.operator ? -1 : 1));
  }

  /** Revokes a key of the operator; the record as it now stands, undefined when there is no such key. */
  async revoke(operator: string, keyId: string, now: Date): Promise<OperatorKeyRecord | undefined> {
    const key = (await this.list()).find((k) => k.operator === operator && k.keyId === keyId);
    if (!key) return undefined;
    if (key.status === 'REVOKED') return key;
    const revokedAt = now.toISOString();
    await this.table.updateEntity({ partitionKey: key.keyHash, rowKey: '', status: 'REVOKED', revokedAt }, 'Merge');
    return { ...key, status: 'REVOKED', revokedAt };
  }
}

function toRecord(entity: OperatorKeyEntity): OperatorKeyRecord {
  return {
    keyHash: entity.partitionKey,
    keyId: entity.keyId,
    operator: entity.operator,
    role: entity.role,
    status: entity.status,
    createdAt: entity.createdAt,
    expiresAt: entity.expiresAt,
    revokedAt: entity.revokedAt,
  };
}
