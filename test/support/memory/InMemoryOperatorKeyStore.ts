import type { OperatorKeyStore } from '../../../src/services/ports/OperatorKeyStore.js';
import type { OperatorKeyRecord } from '../../../src/storage/OperatorKeyRepository.js';

/** Operator keys in a map by hash, for unit tests of services. */
export class InMemoryOperatorKeyStore implements OperatorKeyStore {
  private readonly byHash = new Map<string, OperatorKeyRecord>();

  findByHash(keyHash: string): Promise<OperatorKeyRecord | undefined> {
    return Promise.resolve(this.byHash.get(keyHash));
  }

  create(record: Omit<OperatorKeyRecord, 'status' | 'revokedAt'>): Promise<boolean> {
    if (this.byHash.has(record.keyHash)) return Promise.resolve(false);
    this.byHash.set(record.keyHash, { ...record, status: 'ACTIVE', revokedAt: undefined });
    return Promise.resolve(true);
  }

  list(): Promise<OperatorKeyRecord[]> {
    const keys = [...this.byHash.values()];
    return Promise.resolve(
      keys.sort((a, b) => (a.operator === b.operator ? a.createdAt.localeCompare(b.createdAt) : a.operator < b.operator ? -1 : 1)),
    );
  }

  revoke(operator: string, keyId: string, now: Date): Promise<OperatorKeyRecord | undefined> {
    const key = [...this.byHash.values()].find((k) => k.operator === operator && k.keyId === keyId);
    if (!key || key.status === 'REVOKED') return Promise.resolve(key);
    const revoked: OperatorKeyRecord = { ...key, status: 'REVOKED', revokedAt: now.toISOString() };
    this.byHash.set(key.keyHash, revoked);
    return Promise.resolve(revoked);
  }
}
