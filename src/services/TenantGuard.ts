import { ApiError } from '../errors/ApiError.js';
import type { Clock } from './ports/Clock.js';
import type { StoreRegistrations } from './ports/StoreRegistrations.js';
import { TimedCache } from './TimedCache.js';

/**
 * A partner may name only the stores HQ registered for it, on every push and every query
 * (contract §5.5). Whether another partner has a store of that id is never revealed.
 *
 * A registration found is remembered for `cacheMs` (PARTNER_CACHE_SECONDS) under the partner and
 * the store together, so it never admits another partner; a store found unregistered is looked
 * up again on every request, so a registration HQ adds works at once.
 */
export class TenantGuard {
  private readonly registered: TimedCache<string, true>;

  constructor(
    private readonly registrations: StoreRegistrations,
    private readonly clock: Clock,
    cacheMs: number,
  ) {
    this.registered = new TimedCache(clock, cacheMs);
  }

  /**
   * Refuses with STORE_NOT_ALLOWED unless every store is registered for the partner. Stores named
   * in a body come with the path they sit at, and the refusal lists those paths (never the ids).
   */
  async requireStores(partnerId: string, stores: Iterable<string | StoreReference>): Promise<void> {
    const references = [...stores].map((store) => (typeof store === 'string' ? { storeId: store } : store));
    const storeIds = new Set(references.map((reference) => reference.storeId));
    const toRead = [...storeIds].filter((storeId) => this.registered.get(registrationKey(partnerId, storeId)) === undefined);
    if (toRead.length === 0) return;
    const readAt = this.clock();
    const unregistered = await this.registrations.unregisteredAmong(partnerId, toRead);
    for (const storeId of toRead) {
      if (!unregistered.includes(storeId)) this.registered.set(registrationKey(partnerId, storeId), true, readAt);
    }
    if (unregistered.length > 0) {
      const refused = new Set(unregistered);
      const details = references.flatMap((reference) =>
        'path' in reference && refused.has(reference.storeId)
          ? [{ path: reference.path, message: 'is not a store registered for this partner' }]
          : [],
      );
      throw new ApiError('STORE_NOT_ALLOWED', `${unregistered.length} store_id value(s) are not registered for this partner.`, details);
    }
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
