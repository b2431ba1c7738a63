import type { StoreBatch } from '../../domain/model/payloads.js';
import { checkStoreBatch } from '../../domain/validation/checkStoreBatch.js';
import type { Clock } from '../ports/Clock.js';
import type { StoreMasterData } from '../ports/StoreMasterData.js';
import type { BatchProcessor } from './BatchProcessor.js';
import { rowProblemDetails } from './rowProblemDetails.js';

/** PUT /stores (contract §4.5): upsert by store_id; the later last_modified_at wins, on a tie the copy received last. */
export function storesProcessor(stores: StoreMasterData, clock: Clock): BatchProcessor<StoreBatch> {
  return {
    kind: 'stores',
    collection: 'stores',
    storesOf: (body) => body.stores.map((s, i) => ({ storeId: s.store_id, path: `/stores/${i}/store_id` })),
    recordCount: (body) => body.stores.length,
    check: (partnerId, body) => {
      const problems = checkStoreBatch(body, clock());
      body.stores.forEach((store, i) => problems.push(...rowProblemDetails(`/stores/${i}`, stores.storeProblems(partnerId, store))));
      return Promise.resolve({ problems });
    },

    async apply({ partnerId, body }) {
      const stale = await stores.upsert(partnerId, body.stores, clock());
      return body.stores.flatMap((store, index) =>
        stale.has(store.store_id)
          ? [
              {
                code: 'STALE_VERSION' as const,
                path: `stores[${index}]`,
                message: 'A copy of this store with a later last_modified_at is already stored; this one was ignored.',
              },
            ]
          : [],
      );
    },
  };
}
