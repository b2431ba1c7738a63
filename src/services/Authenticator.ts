import { ApiError } from '../errors/ApiError.js';
import type { Partner } from '../storage/PartnerRepository.js';
import type { ApiKeys } from './ports/ApiKeys.js';
import type { Clock } from './ports/Clock.js';
import type { Partners } from './ports/Partners.js';
import { hashApiKey } from './hashApiKey.js';

/** Longest key accepted for hashing; issued keys are far shorter. Guards against huge headers. */
const maxKeyLength = 256;

/**
 * Resolves the calling partner from the `x-functions-key` value (DESIGN §3). The partner id never
 * comes from the request body. Missing, unknown, revoked and expired keys are indistinguishable
 * to the caller (401); an inactive partner gets 403 PARTNER_INACTIVE.
 */
export class Authenticator {
  constructor(
    private readonly keys: ApiKeys,
    private readonly partners: Partners,
    private readonly clock: Clock,
  ) {}

  async authenticate(key: string | null | undefined): Promise<Partner> {
    if (!key || key.length > maxKeyLength) throw new ApiError('UNAUTHORIZED');
    const record = await this.keys.findByHash(hashApiKey(key));
    if (record?.status !== 'ACTIVE') throw new ApiError('UNAUTHORIZED');
    if (record.expiresAt && Date.parse(record.expiresAt) <= this.clock().getTime()) throw new ApiError('UNAUTHORIZED');
    const partner = await this.partners.get(record.partnerId);
    if (!partner) throw new ApiError('UNAUTHORIZED');
    if (partner.status !== 'ACTIVE') throw new ApiError('PARTNER_INACTIVE');
    return partner;
  }
}
