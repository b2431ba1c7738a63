import type { ApiKeyRecord } from '../../storage/ApiKeyRepository.js';

/** API keys by the SHA-256 of the key (the key itself is never stored). */
export interface ApiKeys {
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  create(record: Omit<ApiKeyRecord, 'status' | 'revokedAt'>): Promise<void>;
  listForPartner(partnerId: string): Promise<ApiKeyRecord[]>;
  /** False when the partner has no such key. A key already revoked keeps its `revokedAt`, also against revocations side by side. */
  revoke(partnerId: string, keyId: string, now: Date): Promise<boolean>;
}
