import type { Store } from '../../../src/domain/model/payloads.js';
import { compareInstants } from '../../../src/domain/reconciliation/compareInstants.js';
import { isStampTooFarAhead } from '../../../src/domain/validation/isStampTooFarAhead.js';
import type { StoreMasterData } from '../../../src/services/ports/StoreMasterData.js';
import type { RowProblem } from '../../../src/storage/tableLimits.js';

/** Store master data in a map, for unit tests of services. */
export class InMemoryStoreMasterData implements StoreMasterData {
  private readonly stores = new Map<string, Store>();

  /** A map holds any row: nothing to refuse. */
  storeProblems(): RowProblem[] {
    return [];
  }

  get(partnerId: string, storeId: string): Promise<Store | undefined> {
    return Promise.resolve(this.stores.get(JSON.stringify([partnerId, storeId])));
  }

  list(partnerId: string): Promise<Store[]> {
    return Promise.resolve([...this.stores].filter(([key]) => (JSON.parse(key) as string[])[0] === partnerId).map(([, store]) => store));
  }

  upsert(partnerId: string, stores: readonly Store[], now: Date): Promise<Set<string>> {
    const stale = new Set<string>();
    for (const store of stores) {
      const key = JSON.stringify([partnerId, store.store_id]);
      const current = this.stores.get(key);
      // A stored stamp too far ahead counts for nothing (StoreMasterRepository does the same).
      const order =
        current && !isStampTooFarAhead(current.last_modified_at, now)
          ? compareInstants(store.last_modified_at, current.last_modified_at)
          : 1;
      // An equal stamp replaces too: stores carry no version (StoreMasterRepository does the same).
      if (order >= 0) this.stores.set(key, store);
      else stale.add(store.store_id);
    }
    return Promise.resolve(stale);
  }
}
