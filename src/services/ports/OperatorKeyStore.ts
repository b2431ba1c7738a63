import type { OperatorKeyRecord } from '../../storage/OperatorKeyRepository.js';

/** HQ operator keys by hash: never the key itself. Apart from partner keys, so neither is taken for the other. */
export interface OperatorKeyStore {
  findByHash(keyHash: string): Promise<OperatorKeyRecord | undefined>;
  /** Stores a new key; false when the hash is already taken. */
  create(record: Omit<OperatorKeyRecord, 'status' | 'revokedAt'>): Promise<boolean>;
  /** Every operator key, by operator then creation time. */
  list(): Promise<OperatorKeyRecord[]>;
  /** Revokes a key of the operator; the record as it now stands, undefined when there is no such key. */
  revoke(operator: string, keyId: string, now: Date): Promise<OperatorKeyRecord | undefined>;
}
