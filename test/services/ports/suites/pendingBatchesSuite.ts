import { expect, it } from 'vitest';
import type { PendingBatches } from '../../../../src/services/ports/PendingBatches.js';
import { freshPartnerId } from './freshIds.js';

/** What every PendingBatches implementation does. */
export function pendingBatchesSuite(make: () => Promise<PendingBatches>): void {
  it('lists the batches created before a cutoff until they are removed, whatever the case of their id', async () => {
    const pending = await make();
    const partnerId = freshPartnerId();
    const old = { partnerId, batchId: 'AB-1', createdAt: '2001-03-01T10:00:00.000Z' };
    const recent = { partnerId, batchId: 'ab-2', createdAt: '2001-03-01T10:10:00.000Z' };
    await pending.add(old);
    await pending.add(recent);
    const listed = async (cutoff: string) => {
      const found: string[] = [];
      for await (const row of pending.listOlderThan(new Date(cutoff))) if (row.partnerId === partnerId) found.push(row.batchId);
      return found.sort();
    };
    expect(await listed('2001-03-01T10:05:00.000Z')).toEqual(['AB-1']);
    expect(await listed('2001-03-01T10:15:00.000Z')).toEqual(['AB-1', 'ab-2']);
    await pending.remove({ ...old, batchId: 'ab-1' });
    await pending.remove({ ...old, batchId: 'ab-1' });
    expect(await listed('2001-03-01T10:15:00.000Z')).toEqual(['ab-2']);
  });

  it('lists the oldest first, whichever partition holds them', async () => {
    const pending = await make();
    const partnerId = freshPartnerId();
    // Times out of order, ids spread over the partitions by their hash.
    const minutes = [7, 2, 11, 0, 5, 9, 1, 10, 3, 8, 6, 4];
    for (const [i, minute] of minutes.entries()) {
      await pending.add({ partnerId, batchId: `batch-${i}`, createdAt: `2001-04-01T10:${String(minute).padStart(2, '0')}:00.000Z` });
    }
    const times: string[] = [];
    for await (const row of pending.listOlderThan(new Date('2001-04-01T11:00:00.000Z')))
      if (row.partnerId === partnerId) times.push(row.createdAt);
    expect(times).toHaveLength(minutes.length);
    expect(times).toEqual([...times].sort());
  });
}
