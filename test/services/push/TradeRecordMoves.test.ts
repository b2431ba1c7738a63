/**
 * The rule between store-days (one day counts each trade_record_id, the highest version), on the
 * storage emulator: a move, a replay after a crash half-way through one, and moves racing.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TradeRecordSummary } from '../../../src/domain/reconciliation/TradeRecordSummary.js';
import type { StoreDay } from '../../../src/services/ports/TradeRecordHomes.js';
import { TradeRecordMoves } from '../../../src/services/push/TradeRecordMoves.js';
import { TradeRecordHomeTable } from '../../../src/storage/TradeRecordHomeTable.js';
import { TradeRecordIndex } from '../../../src/storage/TradeRecordIndex.js';
import { azuriteTable } from '../../support/azuriteClients.js';

const tableName = (): string => `t${randomUUID().replace(/-/g, '').slice(0, 20)}`;

let index: TradeRecordIndex;
let homes: TradeRecordHomeTable;
beforeAll(async () => {
  [index, homes] = [new TradeRecordIndex(await azuriteTable(tableName())), new TradeRecordHomeTable(await azuriteTable(tableName()))];
});

/** Every store active: the stores a test's mover consults. */
const allActive = { isActive: () => Promise.resolve(true) };

/** A mover whose re-reconciliation requests are noted, by store-day; the stores in `retired` are retired. */
function mover(retired: readonly string[] = []): { moves: TradeRecordMoves; rerun: string[] } {
  const rerun: string[] = [];
  const lateData = {
    batchCommitted: (_partnerId: string, storeId: string, businessDate: string) => {
      rerun.push(`${storeId} ${businessDate}`);
      return Promise.resolve();
    },
  };
  const stores = { isActive: (_partnerId: string, storeId: string) => Promise.resolve(!retired.includes(storeId)) };
  return { moves: new TradeRecordMoves({ homes, index, lateData, stores }), rerun };
}

const day = (n: number): StoreDay => ({ storeId: 'S/1', businessDate: `2026-03-0${n}` });

function version(id: string, v: number, batchSeq = v): TradeRecordSummary {
  return {
    trade_record_id: id,
    version: v,
    last_modified_at: `2026-03-01T1${v}:00:00Z`,
    source_transaction_type: 'S01',
    currency: 'USD',
    total_amount: '10.00',
    tax_amount: '0.00',
    tip_amount: '0.00',
    item_row_count: 1,
    payment_row_count: 1,
    payments: [{ payment_type: 'CASH', amount: '10.00' }],
    batch_seq: batchSeq,
    batch_id: `batch-${batchSeq}`,
  };
}

class CutOff extends Error {}

/** The calls made through {@link cutOff} wrappers in the current run, when one is being cut. */
let calls: { calls: number } | undefined;

/**
 * The port with its `cut`-th call (counted across every wrapped port) cut off: never sent, or sent
 * and its answer lost. Calls before it go through; none after it are made.
 */
function cutOff<T extends object>(port: T, cut: number, lost: 'request' | 'response'): T {
  return new Proxy(port, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        if (calls) calls.calls += 1;
        if (calls?.calls === cut && lost === 'request') throw new CutOff();
        const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (calls?.calls === cut) throw new CutOff();
        return result;
      };
    },
  });
}

/** What a push does: the index write and the claim side by side, then the settling of what it wrote. */
async function pushAt(moves: TradeRecordMoves, partnerId: string, at: StoreDay, record: TradeRecordSummary) {
  const batch = { batchId: record.batch_id, batchSeq: record.batch_seq, receivedAt: '2026-03-09T00:00:00Z', recordCount: 1 };
  const [applied, elsewhere] = await Promise.all([
    index.applyBatch(partnerId, at.storeId, at.businessDate, [record], batch),
    moves.claim(partnerId, at, [record]),
  ]);
  const written = applied.stale.size + applied.conflicting.size === 0 ? [record] : [];
  return moves.settle(partnerId, at, written, elsewhere);
}

/** What days 1–5 hold for the id: the version counted, or the day a mark says it moved to. */
async function holders(partnerId: string, id: string): Promise<string[]> {
  const found: string[] = [];
  for (const n of [1, 2, 3, 4, 5]) {
    const row = await index.getRecord(partnerId, day(n).storeId, day(n).businessDate, id);
    if (row?.summary) found.push(`${n}: v${row.summary.version}`);
    else if (row) found.push(`${n}: moved to ${row.movedTo.businessDate.slice(-1)}`);
  }
  return found;
}

describe('TradeRecordMoves', () => {
  it('moves a newer version to its day and has the day it left marked and reconciled again', async () => {
    const { moves, rerun } = mover();
    const partnerId = `p-${randomUUID()}`;
    expect(await pushAt(moves, partnerId, day(1), version('T-1', 1))).toEqual(new Map());
    expect(await pushAt(moves, partnerId, day(2), version('T-1', 2))).toEqual(new Map());
    expect(await holders(partnerId, 'T-1')).toEqual(['1: moved to 2', '2: v2']);
    expect(await homes.get(partnerId, 'T-1')).toMatchObject({ ...day(2), stamp: { version: 2 }, vacating: [] });
    expect(rerun).toEqual(['S/1 2026-03-01']);
    // Sent again where it is: nothing moves.
    expect(await pushAt(moves, partnerId, day(2), version('T-1', 2, 7))).toEqual(new Map());
    expect(rerun).toHaveLength(1);
    // Version 1 again under day 1: the mark keeps it out, and says where the transaction went.
    const late = version('T-1', 1, 8);
    const applied = await index.applyBatch(partnerId, day(1).storeId, day(1).businessDate, [late], {
      batchId: late.batch_id,
      batchSeq: 8,
      receivedAt: '2026-03-09T00:00:00Z',
      recordCount: 1,
    });
    expect(applied.stale).toEqual(new Set(['T-1']));
    expect(await moves.movedAmong(partnerId, day(1), ['T-1'])).toEqual(new Map([['T-1', day(2)]]));

    // Moved on to day 3: day 1's mark still names day 2, and the warning names day 3 all the same.
    expect(await pushAt(moves, partnerId, day(3), version('T-1', 3, 9))).toEqual(new Map());
    expect(await holders(partnerId, 'T-1')).toEqual(['1: moved to 2', '2: moved to 3', '3: v3']);
    expect(await moves.movedAmong(partnerId, day(1), ['T-1'])).toEqual(new Map([['T-1', day(3)]]));
  });

  it('finishes a move a crash cut short, once the push is replayed', async () => {
    const { moves, rerun } = mover();
    const partnerId = `p-${randomUUID()}`;
    await pushAt(moves, partnerId, day(1), version('T-1', 1));
    // The crash came after day 2's row and the home were written, before day 1 was marked.
    await index.applyBatch(partnerId, day(2).storeId, day(2).businessDate, [version('T-1', 2)], {
      batchId: 'batch-2',
      batchSeq: 2,
      receivedAt: '2026-03-09T00:00:00Z',
      recordCount: 1,
    });
    const home = await homes.get(partnerId, 'T-1');
    await homes.replace(partnerId, 'T-1', { ...day(2), stamp: version('T-1', 2), vacating: [day(1)] }, home?.etag ?? '');
    expect(await holders(partnerId, 'T-1')).toEqual(['1: v1', '2: v2']);

    expect(await pushAt(moves, partnerId, day(2), version('T-1', 2))).toEqual(new Map());
    expect(await holders(partnerId, 'T-1')).toEqual(['1: moved to 2', '2: v2']);
    expect((await homes.get(partnerId, 'T-1'))?.vacating).toEqual([]);
    expect(rerun).toEqual(['S/1 2026-03-01']);
  });

  it('finishes a move cut off at any storage call, once the push is replayed', async () => {
    for (let cut = 1; ; cut++) {
      for (const lost of ['request', 'response'] as const) {
        const partnerId = `p-${randomUUID()}`;
        const { moves } = mover();
        await pushAt(moves, partnerId, day(1), version('T-1', 1));
        const rerun: string[] = [];
        const crashing = new TradeRecordMoves({
          homes: cutOff(homes, cut, lost),
          index: cutOff(index, cut, lost),
          lateData: { batchCommitted: (_p, storeId, date) => Promise.resolve(void rerun.push(`${storeId} ${date}`)) },
          stores: allActive,
        });
        const counter = { calls: 0 };
        calls = counter;
        const crashed = await pushAt(crashing, partnerId, day(2), version('T-1', 2)).then(
          () => false,
          (error: unknown) => {
            if (!(error instanceof CutOff)) throw error;
            return true;
          },
        );
        calls = undefined;
        if (!crashed) {
          // Every call of a whole move was cut once, request and response: done.
          expect(cut).toBeGreaterThan(3);
          return;
        }
        const replay = mover();
        await pushAt(replay.moves, partnerId, day(2), version('T-1', 2));
        expect(await holders(partnerId, 'T-1'), `cut at call ${cut}, ${lost} lost`).toEqual(['1: moved to 2', '2: v2']);
        expect(await homes.get(partnerId, 'T-1')).toMatchObject({ ...day(2), vacating: [] });
        expect([...rerun, ...replay.rerun], `cut at call ${cut}, ${lost} lost`).toContain('S/1 2026-03-01');
      }
    }
  });

  it('leaves out an older or equal version sent to another day, and removes what it wrote there', async () => {
    const { moves } = mover();
    const partnerId = `p-${randomUUID()}`;
    await pushAt(moves, partnerId, day(1), version('T-1', 3));
    expect(await pushAt(moves, partnerId, day(2), version('T-1', 2))).toEqual(new Map([['T-1', { ...day(1), reason: 'stale' }]]));
    expect(await pushAt(moves, partnerId, day(3), version('T-1', 3, 9))).toEqual(new Map([['T-1', { ...day(1), reason: 'conflicting' }]]));
    expect(await holders(partnerId, 'T-1')).toEqual(['1: v3']);
  });

  it("never moves a transaction out of a retired store's day: the newer version is left out where it was sent", async () => {
    const retiredDay: StoreDay = { storeId: 'R/1', businessDate: '2026-03-01' };
    const partnerId = `p-${randomUUID()}`;
    const { moves, rerun } = mover([retiredDay.storeId]);
    await pushAt(mover().moves, partnerId, retiredDay, version('T-1', 1));
    // Retired since: version 2 under an active store's day stays out, and the retired day keeps version 1.
    expect(await pushAt(moves, partnerId, day(2), version('T-1', 2))).toEqual(new Map([['T-1', { ...retiredDay, reason: 'retired' }]]));
    expect((await index.getRecord(partnerId, retiredDay.storeId, retiredDay.businessDate, 'T-1'))?.summary?.version).toBe(1);
    expect(await holders(partnerId, 'T-1')).toEqual([]);
    expect(await homes.get(partnerId, 'T-1')).toMatchObject({ ...retiredDay, stamp: { version: 1 }, vacating: [] });
    expect(rerun).toEqual([]);
    // Reactivated, the same version moves.
    expect(await pushAt(mover().moves, partnerId, day(2), version('T-1', 2, 3))).toEqual(new Map());
    expect(await holders(partnerId, 'T-1')).toEqual(['2: v2']);
  });

  it('still finishes a move into a retired day that a crash cut short before the retirement', async () => {
    const retiredDay: StoreDay = { storeId: 'R/2', businessDate: '2026-03-01' };
    const partnerId = `p-${randomUUID()}`;
    await pushAt(mover().moves, partnerId, day(1), version('T-1', 1));
    // Version 2 moved the transaction to the (then active) retired day; the crash came before day 1 was marked.
    await index.applyBatch(partnerId, retiredDay.storeId, retiredDay.businessDate, [version('T-1', 2)], {
      batchId: 'batch-2',
      batchSeq: 2,
      receivedAt: '2026-03-09T00:00:00Z',
      recordCount: 1,
    });
    const home = await homes.get(partnerId, 'T-1');
    await homes.replace(partnerId, 'T-1', { ...retiredDay, stamp: version('T-1', 2), vacating: [day(1)] }, home?.etag ?? '');

    const { moves, rerun } = mover([retiredDay.storeId]);
    expect(await pushAt(moves, partnerId, day(3), version('T-1', 3))).toEqual(new Map([['T-1', { ...retiredDay, reason: 'retired' }]]));
    expect(await holders(partnerId, 'T-1')).toEqual(['1: moved to 1']);
    expect(await homes.get(partnerId, 'T-1')).toMatchObject({ ...retiredDay, stamp: { version: 2 }, vacating: [] });
    expect(rerun).toEqual(['S/1 2026-03-01']);
  });

  it('releases the homes a failed batch noted for ids its day holds no row of', async () => {
    const { moves } = mover();
    const partnerId = `p-${randomUUID()}`;
    const [kept, failed] = [version('T-KEPT', 1), version('T-FAILED', 1)];
    await pushAt(moves, partnerId, day(1), kept);
    // The failed batch's claim went through; its index write did not.
    await moves.claim(partnerId, day(1), [failed]);
    await moves.release(partnerId, day(1), [kept, failed], []);
    expect(await homes.get(partnerId, 'T-KEPT')).toMatchObject(day(1));
    expect(await homes.get(partnerId, 'T-FAILED')).toBeUndefined();
    // So the same version sent under another day later counts there.
    expect(await pushAt(moves, partnerId, day(2), version('T-FAILED', 1))).toEqual(new Map());
    expect(await holders(partnerId, 'T-FAILED')).toEqual(['2: v1']);
  });

  it('counts racing versions under different days once, at the highest version', async () => {
    for (let round = 0; round < 8; round++) {
      const { moves } = mover();
      const partnerId = `p-${randomUUID()}`;
      // Half the rounds start from a home on day 1; the others race for a home of an id never sent.
      if (round % 2 === 0) await pushAt(moves, partnerId, day(1), version('T-1', 1));
      const versions = [2, 3, 4, 5].sort((a, b) => ((a * 7 + round) % 4) - ((b * 7 + round) % 4));
      await Promise.all(versions.map((v) => pushAt(moves, partnerId, day(v), version('T-1', v))));
      const counted = (await holders(partnerId, 'T-1')).filter((held) => !held.includes('moved'));
      expect(counted).toEqual(['5: v5']);
      expect(await homes.get(partnerId, 'T-1')).toMatchObject({ ...day(5), vacating: [] });
    }
  });
});
