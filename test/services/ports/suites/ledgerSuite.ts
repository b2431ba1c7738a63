import { expect, it } from 'vitest';
import type { Ledger } from '../../../../src/services/ports/Ledger.js';
import { freshPartnerId } from './freshIds.js';

const created = new Date('2026-03-01T10:00:00Z');
const committed = new Date('2026-03-01T10:00:01Z');
const batchId = 'B7E3C1A2-0000-4000-8000-000000000001';

/** What every Ledger implementation does. */
export function ledgerSuite(make: () => Promise<Ledger>): void {
  it('creates one PENDING entry per batch id, whatever its case', async () => {
    const ledger = await make();
    const partnerId = freshPartnerId();
    const entry = await ledger.createPending(partnerId, batchId, 'tradeRecords', 'hash-1', created);
    expect(entry).toMatchObject({ state: 'PENDING', kind: 'tradeRecords', bodyHash: 'hash-1', createdAt: created.toISOString() });
    expect(await ledger.createPending(partnerId, batchId.toLowerCase(), 'tradeRecords', 'hash-2', created)).toBeUndefined();
    expect(await ledger.get(partnerId, batchId.toLowerCase())).toMatchObject({ state: 'PENDING', bodyHash: 'hash-1' });
    expect(await ledger.get(freshPartnerId(), batchId)).toBeUndefined();
  });

  it('commits the entry read, keeping the receipt, and only once', async () => {
    const ledger = await make();
    const partnerId = freshPartnerId();
    const pending = await ledger.createPending(partnerId, batchId, 'dailyClose', 'hash-1', created);
    if (!pending) throw new Error('the entry must be new');
    const receipt = { recordCount: 3, warnings: [{ code: 'STALE_VERSION' as const, path: 'trade_records[1]', message: 'older' }] };
    expect(await ledger.commit(partnerId, batchId, pending, receipt, committed)).toBe(true);
    expect(await ledger.get(partnerId, batchId)).toMatchObject({
      state: 'COMMITTED',
      kind: 'dailyClose',
      bodyHash: 'hash-1',
      createdAt: created.toISOString(),
      committedAt: committed.toISOString(),
      receipt,
    });
    // The PENDING entry read before is no longer the stored one.
    expect(await ledger.commit(partnerId, batchId, pending, { recordCount: 9, warnings: [] }, committed)).toBe(false);
    expect(await ledger.deleteAbandoned(partnerId, batchId, pending)).toBe(false);
    expect(await ledger.get(partnerId, batchId)).toMatchObject({ receipt: { recordCount: 3 } });
  });

  it('drops an abandoned PENDING entry and lists only pending ones', async () => {
    const ledger = await make();
    const partnerId = freshPartnerId();
    const kept = await ledger.createPending(partnerId, 'batch-kept', 'stores', 'h', created);
    const dropped = await ledger.createPending(partnerId, 'batch-dropped', 'stores', 'h', created);
    const done = await ledger.createPending(partnerId, 'batch-done', 'stores', 'h', created);
    if (!kept || !dropped || !done) throw new Error('the entries must be new');
    await ledger.commit(partnerId, 'batch-done', done, { recordCount: 1, warnings: [] }, committed);
    expect(await ledger.deleteAbandoned(partnerId, 'batch-dropped', dropped)).toBe(true);
    expect(await ledger.get(partnerId, 'batch-dropped')).toBeUndefined();

    const pending: string[] = [];
    for await (const entry of ledger.listPending()) if (entry.partnerId === partnerId) pending.push(entry.batchId);
    expect(pending).toEqual(['batch-kept']);
  });
}
