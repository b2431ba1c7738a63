import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Ledger } from '../../../../src/services/ports/Ledger.js';
import type { UncommittedBatches } from '../../../../src/services/ports/UncommittedBatches.js';
import type { LedgerPosition, UncommittedBatch } from '../../../../src/storage/BatchLedgerListing.js';
import type { PendingBatch } from '../../../../src/storage/PendingBatchIndex.js';
import { freshPartnerId } from './freshIds.js';

const now = new Date('2026-03-01T10:00:00Z');

async function allPages(listing: UncommittedBatches, state: 'PENDING' | 'FAILED', partnerId: string, limit: number) {
  const items: UncommittedBatch[] = [];
  let after: LedgerPosition | undefined;
  let pages = 0;
  do {
    const page = await listing.page(state, { partnerId, limit, after });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.items);
    after = page.next;
    pages++;
  } while (after !== undefined && pages < 20);
  return items;
}

/**
 * The ledger and what a push writes beside it: `received` what it notes with a new entry (the
 * pending index), `failing` what it notes before the ledger says FAILED (the failed index).
 */
export interface UncommittedBatchesWorld {
  readonly ledger: Ledger;
  readonly listing: UncommittedBatches;
  readonly received: (batch: PendingBatch) => Promise<void>;
  readonly failing: (batch: PendingBatch) => Promise<void>;
}

/** What every UncommittedBatches implementation does, over entries written as a push writes them. */
export function uncommittedBatchesSuite(make: () => Promise<UncommittedBatchesWorld>): void {
  const receive = async ({ ledger, received }: UncommittedBatchesWorld, partnerId: string, batchId: string) => {
    const entry = await ledger.createPending(partnerId, batchId, 'tradeRecords', 'hash', now);
    if (!entry) throw new Error('no entry');
    await received({ partnerId, batchId, createdAt: entry.createdAt });
    return entry;
  };

  it("pages one state's entries of a partner, every entry once, never another partner's", async () => {
    const world = await make();
    const { ledger, listing } = world;
    const partnerId = freshPartnerId();
    const ids = Array.from({ length: 5 }, () => randomUUID());
    for (const id of ids) await receive(world, partnerId, id);
    await receive(world, freshPartnerId(), randomUUID());
    const failing = ids[0]!;
    const pending = await ledger.get(partnerId, failing);
    if (!pending) throw new Error('no entry');
    await world.failing({ partnerId, batchId: failing, createdAt: pending.createdAt });
    await ledger.markFailed(
      partnerId,
      failing,
      pending,
      'storage refused the content: 400 EntityTooLarge',
      new Date('2026-03-01T10:00:01Z'),
    );

    const listed = await allPages(listing, 'PENDING', partnerId, 2);
    expect(listed.map((b) => b.batchId).sort()).toEqual(ids.slice(1).sort());
    expect(listed.every((b) => b.partnerId === partnerId && b.state === 'PENDING' && b.kind === 'tradeRecords')).toBe(true);
    expect(await allPages(listing, 'FAILED', partnerId, 2)).toEqual([
      {
        partnerId,
        batchId: failing,
        state: 'FAILED',
        kind: 'tradeRecords',
        createdAt: now.toISOString(),
        failedAt: '2026-03-01T10:00:01.000Z',
        failure: 'storage refused the content: 400 EntityTooLarge',
      },
    ]);
  });

  it('leaves out a batch whose entry is in another state now, whatever was noted of it', async () => {
    const world = await make();
    const { ledger, listing } = world;
    const partnerId = freshPartnerId();
    const [committed, stillPending, raced] = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of [committed, stillPending, raced]) await receive(world, partnerId, id);
    // Committed, its pending note kept (a trade-record batch waits so for its report fragment).
    const entry = await ledger.get(partnerId, committed);
    await ledger.commit(partnerId, committed, entry!, { recordCount: 1, warnings: [] }, now);
    // Noted as failing, then committed by another copy of the push before the ledger said FAILED.
    const racing = await ledger.get(partnerId, raced);
    await world.failing({ partnerId, batchId: raced, createdAt: racing!.createdAt });
    await ledger.commit(partnerId, raced, racing!, { recordCount: 1, warnings: [] }, now);

    expect((await allPages(listing, 'PENDING', partnerId, 10)).map((b) => b.batchId)).toEqual([stillPending]);
    expect(await allPages(listing, 'FAILED', partnerId, 10)).toEqual([]);
  });

  it("fills a page past batches committed since they were noted, as on a busy evening's index", async () => {
    const world = await make();
    const { ledger, listing } = world;
    const partnerId = freshPartnerId();
    const ids = Array.from({ length: 12 }, () => randomUUID()).sort();
    for (const id of ids) await receive(world, partnerId, id);
    // All but the last two are committed, waiting only for their report fragments.
    for (const id of ids.slice(0, 10)) {
      const entry = await ledger.get(partnerId, id);
      await ledger.commit(partnerId, id, entry!, { recordCount: 1, warnings: [] }, now);
    }
    // The first index rows are committed batches: the page reads on past them rather than coming
    // back empty. (It may stop short of full at its read limit, where the two land late in the
    // index's order; the next page then holds the rest.)
    const first = await listing.page('PENDING', { partnerId, limit: 2 });
    expect(first.items.length).toBeGreaterThan(0);
    expect(ids.slice(10)).toEqual(expect.arrayContaining(first.items.map((b) => b.batchId)));
    expect((await allPages(listing, 'PENDING', partnerId, 2)).map((b) => b.batchId).sort()).toEqual(ids.slice(10));
  });

  it('takes back only positions a page could have produced', async () => {
    const { listing } = await make();
    expect(listing.isPosition({ partitionKey: 'p1', rowKey: 'b1' })).toBe(true);
    expect(listing.isPosition({ partitionKey: '', rowKey: 'b1' })).toBe(false);
    expect(listing.isPosition({ partitionKey: 'p1\n', rowKey: 'b1' })).toBe(false);
  });
}
