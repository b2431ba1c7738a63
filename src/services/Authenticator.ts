import { ApiError } from '../errors/ApiError.js';
import { RefusedCallerError } from '../errors/RefusedCallerError.js';
import type { ApiKeyRecord } from '../storage/ApiKeyRepository.js';
import type { Partner } from '../storage/PartnerRepository.js';
import type { ApiKeys } from './ports/ApiKeys.js';
import type { Clock } from './ports/Clock.js';
import type { Partners } from './ports/Partners.js';
import { hashApiKey } from './hashApiKey.js';
import { TimedCache } from './TimedCache.js';

/** Longest key accepted for hashing; issued keys are far shorter. Guards against huge headers. */
const maxKeyLength = 256;

/**
 * Resolves the calling partner from the `x-functions-key` value (DESIGN §3). The partner id never
 * comes from the request body. Missing, unknown, revoked and expired keys are indistinguishable
 * to the caller (401); an inactive partner gets 403 PARTNER_INACTIVE.
 *
 * An active key and an active partner are remembered for `cacheMs` (PARTNER_CACHE_SECONDS), so a
 * warm request needs no storage read to know its caller: a key revoked or a partner deactivated
 * meanwhile keeps working on this instance until its entry is that old. Expiry is checked on every
 * request, and what is refused (unknown, revoked, inactive) is never remembered, so a new key or a
 * partner activated again works at once.
 */
export class Authenticator {
  private readonly keyCache: TimedCache<string, ApiKeyRecord>;
  private readonly partnerCache: TimedCache<string, Partner>;

  constructor(
    private readonly keys: ApiKeys,
    private readonly partners: Partners,
    private readonly clock: Clock,
    cacheMs: number,
  ) {
    this.keyCache = new TimedCache(clock, cacheMs);
    this.partnerCache = new TimedCache(clock, cacheMs);
  }

  /**
   * The calling partner, and the id of the key it called with (never the key): the access log
   * names it, so HQ sees which of a partner's keys are still in use before revoking one.
   */
  async authenticate(key: string | null | undefined): Promise<{ partner: Partner; keyId: string }> {
    if (!key || key.length > maxKeyLength) throw new ApiError('UNAUTHORIZED');
    const record = await this.activeKey(hashApiKey(key));
    if (!record) throw new ApiError('UNAUTHORIZED');
    const expired = record.expiresAt !== undefined && Date.parse(record.expiresAt) <= this.clock().getTime();
    if (record.status !== 'ACTIVE' || expired) throw new RefusedCallerError('UNAUTHORIZED', record.partnerId, record.keyId);
    const partner = await this.activePartner(record.partnerId);
    if (!partner) throw new RefusedCallerError('UNAUTHORIZED', record.partnerId, record.keyId);
    if (partner.status !== 'ACTIVE') throw new RefusedCallerError('PARTNER_INACTIVE', record.partnerId, record.keyId);
    return { partner, keyId: record.keyId };
  }

  private activeKey(keyHash: string): Promise<ApiKeyRecord | undefined> {
    return this.keyCache.getOrRead(
      keyHash,
      () => this.keys.findByHash(keyHash),
      (record) => record.status === 'ACTIVE',
    );
  }

  private activePartner(partnerId: string): Promise<Partner | undefined> {
    return this.partnerCache.getOrRead(
      partnerId,
      () => this.partners.get(partnerId),
      (partner) => partner.status === 'ACTIVE',
    );
  }
}
