import type { TableClient } from '@azure/data-tables';
import type { FailedBatches } from '../services/ports/FailedBatches.js';
import type { PendingBatch } from './PendingBatchIndex.js';
import { encodeKeyPart } from './tableKey.js';

/**
 * One row per batch that ended FAILED (or was about to: the row is written first), one partition
 * per partner, so that HQ lists failed batches from these few rows instead of filtering the whole
 * ledger. A row whose batch did not end FAILED (another copy committed it first) is left out by the
 * listing, which reads each batch's ledger entry.
 */
export class FailedBatchIndex implements FailedBatches {
  constructor(private readonly table: TableClient) {}

  async add(batch: PendingBatch): Promise<void> {
    await this.table.upsertEntity(
      {
        partitionKey: encodeKeyPart(batch.partnerId),
        // A UUID names the same batch in upper or lower case.
        rowKey: encodeKeyPart(batch.batchId.toLowerCase()),
        partnerId: batch.partnerId,
        batchId: batch.batchId,
        createdAt: batch.createdAt,
      },
      'Replace',
    );
  }
}
