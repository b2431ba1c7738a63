import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Ledger } from '../../../../src/services/ports/Ledger.js';
import type { UncommittedBatches } from '../../../../src/services/ports/UncommittedBatches.js';
import type { LedgerPosition, UncommittedBatch } from '../../../../src/storage/BatchLedgerListing.js';
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

/** What every UncommittedBatches implementation does, over entries its ledger wrote. */
export function uncommittedBatchesSuite(make: () => Promise<{ ledger: Ledger; listing: UncommittedBatches }>): void {
  it("pages one state's entries of a partner, every entry once, never another partner's", async () => {
    const { ledger, listing } = await make();
    const partnerId = freshPartnerId();
    const ids = Array.from({ length: 5 }, () => randomUUID());
    for (const id of ids) await ledger.createPending(partnerId, id, 'tradeRecords', 'hash', now);
    await ledger.createPending(freshPartnerId(), randomUUID(), 'tradeRecords', 'hash', now);
    const failing = ids[0]!;
    const pending = await ledger.get(partnerId, failing);
    if (!pending) throw new Error('no entry');
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

  it('takes back only positions a page could have produced', async () => {
    const { listing } = await make();
    expect(listing.isPosition({ partitionKey: 'p1', rowKey: 'b1' })).toBe(true);
    expect(listing.isPosition({ partitionKey: '', rowKey: 'b1' })).toBe(false);
    expect(listing.isPosition({ partitionKey: 'p1\n', rowKey: 'b1' })).toBe(false);
  });
}
