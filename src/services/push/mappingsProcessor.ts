import type { MappingBatch } from '../../domain/model/payloads.js';
import { standardTransactionTypes } from '../../domain/reference/standardTransactionTypes.js';
import { checkMappingBatch } from '../../domain/validation/checkMappingBatch.js';
import type { Clock } from '../ports/Clock.js';
import type { MappingPointers } from '../ports/MappingPointers.js';
import type { ClosedDayReruns } from '../reruns/ClosedDayReruns.js';
import type { BatchProcessor } from './BatchProcessor.js';

export interface MappingsDependencies {
  readonly pointers: MappingPointers;
  /** Has closed days whose unmapped codes the mapping in effect maps reconciled again. */
  readonly reruns: Pick<ClosedDayReruns, 'afterMappingUpload'>;
  readonly clock: Clock;
}

const standardCodes: ReadonlySet<string> = new Set(standardTransactionTypes.data.map((t) => t.code));

/**
 * PUT /mappings/transaction-types (contract §4.7): full replacement. The upload's body, kept in
 * the raw batch store, is the mapping; a pointer row switches to it in one write.
 */
export function mappingsProcessor(deps: MappingsDependencies): BatchProcessor<MappingBatch> {
  return {
    kind: 'mappings',
    storesOf: () => [],
    recordCount: (body) => body.mappings.length,
    check: (_partnerId, body) => Promise.resolve(checkMappingBatch(body, standardCodes)),

    async apply({ partnerId, body, receivedAt }) {
      const outcome = await deps.pointers.switchTo(partnerId, {
        batchId: body.batch_id,
        receivedAt,
        updatedAt: deps.clock().toISOString(),
      });
      // A replay of the upload in effect is 'applied' too, so a crash before this send is made good.
      if (outcome === 'applied') await deps.reruns.afterMappingUpload(partnerId, body.batch_id);
      return [];
    },
  };
}
