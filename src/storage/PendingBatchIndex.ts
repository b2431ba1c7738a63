import { createHash } from 'node:crypto';
import { odata, type TableClient } from '@azure/data-tables';
import { isNotFound } from './storageErrors.js';
import { encodeKeyPart } from './tableKey.js';

/** A push that has a ledger entry and may not be committed yet. */
export interface PendingBatch {
  readonly partnerId: string;
  readonly batchId: string;
  /** The ledger entry's createdAt. */
  readonly createdAt: string;
}

/** Rows are spread over a few partitions so no single partition carries every push. */
const partitionCount = 4;

/**
 * One row per push from its first write until its commit, keyed by time: the sweep finds the
 * pushes left unfinished with one range query per partition (`RowKey lt <cutoff>`), never by
 * scanning the batch ledger, which grows with every batch ever received.
 */
export class PendingBatchIndex {
  constructor(private readonly table: TableClient) {}

  async add(batch: PendingBatch): Promise<void> {
    await this.table.upsertEntity({ ...keysOf(batch), ...batch }, 'Replace');
  }

  /** Removes the row; a row already gone is fine (another request or the sweep removed it). */
  async remove(batch: PendingBatch): Promise<void> {
    const { partitionKey, rowKey } = keysOf(batch);
    try {
      await this.table.deleteEntity(partitionKey, rowKey);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  /** Every row older than `cutoff`, oldest first within each partition. */
  async *listOlderThan(cutoff: Date): AsyncIterable<PendingBatch> {
    for (let partition = 0; partition < partitionCount; partition += 1) {
      const filter = odata`PartitionKey eq ${partitionName(partition)} and RowKey lt ${cutoff.toISOString()}`;
      for await (const entity of this.table.listEntities<PendingBatch>({ queryOptions: { filter } })) {
        yield { partnerId: entity.partnerId, batchId: entity.batchId, createdAt: entity.createdAt };
      }
    }
  }
}

function partitionName(n: number): string {
  return `pending-${n}`;
}

function keysOf(batch: PendingBatch): { partitionKey: string; rowKey: string } {
  const batchKey = batch.batchId.toLowerCase();
  const shard = createHash('sha256').update(`${batch.partnerId}\n${batchKey}`).digest().readUInt8(0) % partitionCount;
  // The ISO time first (a fixed-width UTC string, so text order is time order): a range on RowKey
  // selects by age; the ids after it keep rows apart.
  return { partitionKey: partitionName(shard), rowKey: `${batch.createdAt}|${encodeKeyPart(batch.partnerId)}|${encodeKeyPart(batchKey)}` };
}
