import type { PendingBatch } from '../../../src/storage/PendingBatchIndex.js';
import type { PendingBatches } from '../../../src/services/ports/PendingBatches.js';

/** Pending pushes in a map, for unit tests of services. */
export class InMemoryPendingBatches implements PendingBatches {
  private readonly rows = new Map<string, PendingBatch>();

  add(batch: PendingBatch): Promise<void> {
    this.rows.set(key(batch), { partnerId: batch.partnerId, batchId: batch.batchId, createdAt: batch.createdAt });
    return Promise.resolve();
  }

  remove(batch: PendingBatch): Promise<void> {
    this.rows.delete(key(batch));
    return Promise.resolve();
  }

  async *listOlderThan(cutoff: Date): AsyncIterable<PendingBatch> {
    const rows = [...this.rows.values()].filter((row) => row.createdAt < cutoff.toISOString());
    rows.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    for (const row of rows) yield await Promise.resolve(row);
  }
}

/** A UUID names the same batch in upper or lower case. */
function key(batch: PendingBatch): string {
  return JSON.stringify([batch.partnerId, batch.batchId.toLowerCase(), batch.createdAt]);
}
