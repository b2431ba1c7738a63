import { randomBytes } from 'node:crypto';
import { hashApiKey } from '../../services/hashApiKey.js';
import type { OperatorKeyRecord, OperatorRole } from '../../storage/OperatorKeyRepository.js';
import type { OperatorKeyStore } from '../../services/ports/OperatorKeyStore.js';

/** A key just issued: the only moment the key itself exists outside the caller's hands. */
export interface IssuedOperatorKey {
  readonly key: string;
  readonly record: OperatorKeyRecord;
}

/** Operator names: what a host key name and a log line can carry unchanged. */
export const operatorNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const operatorRoles: readonly OperatorRole[] = ['viewer', 'admin'];

/**
 * Issues, lists and revokes HQ operator keys, under the partner keys' rules: 32 random bytes shown
 * once, only the SHA-256 stored, several active keys per operator for rotation, optional expiry.
 */
export class OperatorKeys {
  constructor(
    private readonly keys: OperatorKeyStore,
    private readonly clock: () => Date,
  ) {}

  async issue(operator: string, role: OperatorRole, expiresAt: string | undefined): Promise<IssuedOperatorKey> {
    for (;;) {
      const key = randomBytes(32).toString('base64url');
      const fields = {
        keyHash: hashApiKey(key),
        keyId: `op-${randomBytes(4).toString('hex')}`,
        operator,
        role,
        createdAt: this.clock().toISOString(),
        expiresAt,
      };
      // A clash of 256-bit keys does not happen; the check only keeps one from overwriting another.
      if (await this.keys.create(fields)) return { key, record: { ...fields, status: 'ACTIVE', revokedAt: undefined } };
    }
  }

  list(): Promise<OperatorKeyRecord[]> {
    return this.keys.list();
  }

  revoke(operator: string, keyId: string): Promise<OperatorKeyRecord | undefined> {
    return this.keys.revoke(operator, keyId, this.clock());
  }
}

/** The host key name that carries an operator key in Azure (letters, digits, `-`, `_`). */
export function operatorHostKeyName(operator: string, keyId: string): string {
  return `hq-${operator}-${keyId}`.replace(/[^A-Za-z0-9_-]/g, '_');
}
