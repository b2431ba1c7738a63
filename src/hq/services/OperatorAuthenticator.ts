import { ApiError } from '../../errors/ApiError.js';
import { hashApiKey } from '../../services/hashApiKey.js';
import { keyStatus } from '../../services/keyStatus.js';
import type { OperatorRole } from '../../storage/OperatorKeyRepository.js';
import type { OperatorKeyStore } from '../../services/ports/OperatorKeyStore.js';
import type { ApiKeys } from '../../services/ports/ApiKeys.js';

/** The HQ operator a request's key belongs to. */
export interface Operator {
  readonly name: string;
  readonly role: OperatorRole;
  readonly keyId: string;
  readonly expiresAt: string | undefined;
}

/** Longest key accepted for hashing; issued keys are far shorter. Guards against huge headers. */
const maxKeyLength = 256;

/**
 * Resolves the operator from the `x-functions-key` value, as the partner Authenticator resolves a
 * partner (DESIGN §3). Missing, unknown, revoked and expired keys are one 401. A key that is a valid
 * partner key gets 403 OPERATOR_KEY_REQUIRED: the caller is known, but partners never open /hq/v1.
 */
export class OperatorAuthenticator {
  constructor(
    private readonly operatorKeys: OperatorKeyStore,
    private readonly partnerKeys: ApiKeys,
    private readonly clock: () => Date,
  ) {}

  async authenticate(key: string | null | undefined): Promise<Operator> {
    if (!key || key.length > maxKeyLength) throw new ApiError('UNAUTHORIZED');
    const hash = hashApiKey(key);
    const record = await this.operatorKeys.findByHash(hash);
    if (record) {
      if (keyStatus(record, this.clock()) !== 'ACTIVE') throw new ApiError('UNAUTHORIZED');
      return { name: record.operator, role: record.role, keyId: record.keyId, expiresAt: record.expiresAt };
    }
    const partnerKey = await this.partnerKeys.findByHash(hash);
    if (partnerKey && keyStatus(partnerKey, this.clock()) === 'ACTIVE') throw new ApiError('OPERATOR_KEY_REQUIRED');
    throw new ApiError('UNAUTHORIZED');
  }
}
