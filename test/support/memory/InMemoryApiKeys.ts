import type { ApiKeyRecord } from '../../../src/storage/ApiKeyRepository.js';
import type { ApiKeys } from '../../../src/services/ports/ApiKeys.js';

/** ApiKeys in a map, for unit tests of services. */
export class InMemoryApiKeys implements ApiKeys {
  private readonly byHash = new Map<string, ApiKeyRecord>();

  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    return Promise.resolve(this.byHash.get(keyHash));
  }

  create(record: Omit<ApiKeyRecord, 'status' | 'revokedAt'>): Promise<void> {
    if (this.byHash.has(record.keyHash)) return Promise.reject(new Error('A key with this hash exists.'));
    this.byHash.set(record.keyHash, { ...record, status: 'ACTIVE', revokedAt: undefined });
    return Promise.resolve();
  }

  listForPartner(partnerId: string): Promise<ApiKeyRecord[]> {
    const keys = [...this.byHash.values()].filter((k) => k.partnerId === partnerId);
    return Promise.resolve(keys.sort((a, b) => a.createdAt.localeCompare(b.createdAt)));
  }

  async revoke(partnerId: string, keyId: string, now: Date): Promise<boolean> {
    const key = (await this.listForPartner(partnerId)).find((k) => k.keyId === keyId);
    if (!key) return false;
    if (key.status !== 'REVOKED') this.byHash.set(key.keyHash, { ...key, status: 'REVOKED', revokedAt: now.toISOString() });
    return true;
  }
}
