import type { Store } from '../domain/model/payloads.js';
import type { RowProblem } from '../storage/tableLimits.js';
import type { Clock } from './ports/Clock.js';
import type { StoreMasterData } from './ports/StoreMasterData.js';
import { TimedCache } from './TimedCache.js';

/**
 * Store master data as the push checks read it (the store's currency sets the decimal places):
 * a store found is remembered for `cacheMs` (PARTNER_CACHE_SECONDS); a store not found is read
 * again every time, so a partner that sends its stores, then its first batch, is checked against
 * them. A store upload through this instance forgets the stores it names, so this instance sees it
 * at once; another instance sees a changed store once its entry is `cacheMs` old.
 */
export class CachedStoreMasterData implements StoreMasterData {
  private readonly found: TimedCache<string, Store>;

  constructor(
    private readonly stores: StoreMasterData,
    clock: Clock,
    cacheMs: number,
  ) {
    this.found = new TimedCache(clock, cacheMs);
  }

  get(partnerId: string, storeId: string): Promise<Store | undefined> {
    return this.found.getOrRead(storeKey(partnerId, storeId), () => this.stores.get(partnerId, storeId));
  }

  /** Not cached: read by the stores report, never on a request's path. */
  list(partnerId: string): Promise<Store[]> {
    return this.stores.list(partnerId);
  }

  storeProblems(partnerId: string, store: Store): RowProblem[] {
    return this.stores.storeProblems(partnerId, store);
  }

  async upsert(partnerId: string, stores: readonly Store[], now: Date): Promise<Set<string>> {
    // Forgotten before and after the write: a read that raced the write cannot leave the old copy.
    for (const store of stores) this.found.delete(storeKey(partnerId, store.store_id));
    try {
      return await this.stores.upsert(partnerId, stores, now);
    } finally {
      for (const store of stores) this.found.delete(storeKey(partnerId, store.store_id));
    }
  }
}

function storeKey(partnerId: string, storeId: string): string {
  return JSON.stringify([partnerId, storeId]);
}
