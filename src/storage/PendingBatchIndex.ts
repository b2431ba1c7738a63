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

type PendingEntity = PendingBatch & { readonly rowKey: string };

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

  /**
   * Every row older than `cutoff`, oldest first across the partitions (each lists in key order, and
   * a key starts with the time), so that a sweep that stops early has taken the oldest.
   */
  async *listOlderThan(cutoff: Date): AsyncIterable<PendingBatch> {
    const partitions = Array.from({ length: partitionCount }, (_, partition): AsyncIterator<PendingEntity> => {
      const filter = odata`PartitionKey eq ${partitionName(partition)} and RowKey lt ${cutoff.toISOString()}`;
      return this.table.listEntities<PendingEntity>({ queryOptions: { filter } })[Symbol.asyncIterator]();
    });
    try {
      // Inside the try: a partition whose first page fails still has the others' listings stopped.
      const heads = await Promise.all(partitions.map((p) => p.next()));
      for (;;) {
        let oldest: { listing: AsyncIterator<PendingEntity>; partition: number; entity: PendingEntity } | undefined;
        for (const [partition, listing] of partitions.entries()) {
          const head = heads[partition];
          if (head?.done === false && (oldest === undefined || head.value.rowKey < oldest.entity.rowKey)) {
            oldest = { listing, partition, entity: head.value };
          }
        }
        if (oldest === undefined) return;
        const { listing, partition, entity } = oldest;
        yield { partnerId: entity.partnerId, batchId: entity.batchId, createdAt: entity.createdAt };
        heads[partition] = await listing.next();
      }
    } finally {
      await Promise.all(
        partitions.map(async (listing) => {
          await listing.return?.();
        }),
      );
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
