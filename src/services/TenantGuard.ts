import { ApiError } from '../errors/ApiError.js';
import type { StoreRegistrationStatus } from '../storage/StoreRegistrationRepository.js';
import type { Clock } from './ports/Clock.js';
import type { StoreRegistrations } from './ports/StoreRegistrations.js';
import { TimedCache } from './TimedCache.js';

/**
 * A partner may name only the stores HQ registered for it, on every push and every query
 * (contract §5.5). Whether another partner has a store of that id is never revealed. A store HQ
 * retired takes nothing the partner sends, exactly as if it were not registered, while what it
 * sent before stays the partner's to read.
 *
 * A registration read is remembered for `cacheMs` (PARTNER_CACHE_SECONDS) under the partner and
 * the store together, so it never admits another partner. Only ACTIVE is trusted for a push: a
 * store found unregistered or retired is looked up again on every push, so a registration or a
 * reactivation HQ makes works at once, while a retirement takes effect within `cacheMs`.
 */
export class TenantGuard {
  private readonly statuses: TimedCache<string, StoreRegistrationStatus>;

  constructor(
    private readonly registrations: StoreRegistrations,
    private readonly clock: Clock,
    cacheMs: number,
  ) {
    this.statuses = new TimedCache(clock, cacheMs);
  }

  /**
   * For what a partner sends: refuses with STORE_NOT_ALLOWED unless every store is registered for
   * the partner and not retired. Stores named in a body come with the path they sit at, and the
   * refusal lists those paths (never the ids).
   */
  async requireStores(partnerId: string, stores: Iterable<string | StoreReference>): Promise<void> {
    await this.require(partnerId, stores, (status) => status === 'ACTIVE');
  }

  /**
   * For what a partner reads about a store: refuses with STORE_NOT_ALLOWED unless the store is
   * registered for the partner. A retired store's past results stay readable: they are still the
   * partner's books.
   */
  async requireReadable(partnerId: string, storeId: string): Promise<void> {
    await this.require(partnerId, [storeId], (status) => status !== undefined);
  }

  /**
   * Whether the store is registered for the partner and not retired: for a push that would change
   * a day of a store it does not name (a transaction moving out of it), which a retired store's
   * days no longer take. Cached as {@link requireStores} caches.
   */
  async isActive(partnerId: string, storeId: string): Promise<boolean> {
    return (await this.refusedAmong(partnerId, [storeId], (status) => status === 'ACTIVE')).size === 0;
  }

  private async require(
    partnerId: string,
    stores: Iterable<string | StoreReference>,
    allows: (status: StoreRegistrationStatus | undefined) => boolean,
  ): Promise<void> {
    const references = [...stores].map((store) => (typeof store === 'string' ? { storeId: store } : store));
    const refused = await this.refusedAmong(partnerId, [...new Set(references.map((reference) => reference.storeId))], allows);
    if (refused.size > 0) {
      const details = references.flatMap((reference) =>
        'path' in reference && refused.has(reference.storeId)
          ? [{ path: reference.path, message: 'is not a store registered for this partner' }]
          : [],
      );
      throw new ApiError('STORE_NOT_ALLOWED', `${refused.size} store_id value(s) are not registered for this partner.`, details);
    }
  }

  /**
   * The stores of `storeIds` whose registration `allows` refuses. A remembered status is trusted
   * only when it is allowed; the others are read, and remembered for `cacheMs`.
   */
  private async refusedAmong(
    partnerId: string,
    storeIds: readonly string[],
    allows: (status: StoreRegistrationStatus | undefined) => boolean,
  ): Promise<Set<string>> {
    const toRead = storeIds.filter((storeId) => !allows(this.statuses.get(registrationKey(partnerId, storeId))));
    if (toRead.length === 0) return new Set();
    const readAt = this.clock();
    const found = await this.registrations.statusesAmong(partnerId, toRead);
    for (const [storeId, status] of found) this.statuses.set(registrationKey(partnerId, storeId), status, readAt);
    return new Set(toRead.filter((storeId) => !allows(found.get(storeId))));
  }
}

/** A store_id named in a body, and the JSON Pointer of where it is. */
export interface StoreReference {
  readonly storeId: string;
  readonly path: string;
}

/** Partner and store as one unambiguous key (either may hold any character). */
function registrationKey(partnerId: string, storeId: string): string {
  return JSON.stringify([partnerId, storeId]);
}
