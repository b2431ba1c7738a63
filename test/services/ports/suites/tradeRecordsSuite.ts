import { expect, it } from 'vitest';
import type { TradeRecordSummary } from '../../../../src/domain/reconciliation/TradeRecordSummary.js';
import type { DayRow } from '../../../../src/storage/TradeRecordIndex.js';
import type { TradeRecords } from '../../../../src/services/ports/TradeRecords.js';
import { anyString } from '../../../support/matchers.js';
import { freshPartnerId } from './freshIds.js';

const day = ['S/1', '2026-03-01'] as const;

function summary(id: string, version: number, lastModifiedAt: string, batchSeq: number): TradeRecordSummary {
  return {
    trade_record_id: id,
    version,
    last_modified_at: lastModifiedAt,
    source_transaction_type: 'S01',
    currency: 'USD',
    total_amount: `${version}.50`,
    tax_amount: '0.40',
    tip_amount: '0.00',
    item_row_count: 2,
    payment_row_count: 2,
    payments: [
      { payment_type: 'CASH', amount: '1.00' },
      { payment_type: 'CARD', amount: `${version - 1}.50` },
    ],
    batch_seq: batchSeq,
    batch_id: `batch-${batchSeq}`,
  };
}

function batch(seq: number, recordCount: number) {
  return { batchId: `batch-${seq}`, batchSeq: seq, receivedAt: `2026-03-01T1${seq}:00:00.000Z`, recordCount };
}

async function listed(index: TradeRecords, partnerId: string): Promise<DayRow[]> {
  const rows: DayRow[] = [];
  for await (const row of index.listDay(partnerId, ...day)) rows.push(row);
  return rows;
}

/** What every TradeRecords implementation does. */
export function tradeRecordsSuite(make: () => Promise<TradeRecords>): void {
  it('keeps the latest version of each record and lists the batches first', async () => {
    const index = await make();
    const partnerId = freshPartnerId();
    const a2 = summary('T/a', 2, '2026-03-01T10:00:00Z', 1);
    const b1 = summary('T#b', 1, '2026-03-01T10:00:00Z', 1);
    expect(await index.applyBatch(partnerId, ...day, [a2, b1], batch(1, 2))).toEqual({ stale: new Set(), conflicting: new Set() });
    const b1Later = summary('T#b', 1, '2026-03-01T06:00:01-05:00', 2);
    const applied = await index.applyBatch(partnerId, ...day, [summary('T/a', 1, '2026-03-02T00:00:00Z', 2), b1Later], batch(2, 2));
    expect(applied).toEqual({ stale: new Set(['T/a']), conflicting: new Set() });

    const rows = await listed(index, partnerId);
    expect(rows.slice(0, 2)).toEqual([
      { type: 'batch', batch: batch(1, 2) },
      { type: 'batch', batch: batch(2, 2) },
    ]);
    const transactions = rows.slice(2).flatMap((row) => (row.type === 'transaction' ? [row.summary] : []));
    expect(transactions.sort((x, y) => (x.trade_record_id < y.trade_record_id ? -1 : 1))).toEqual([b1Later, a2]);
  });

  it('keeps the stored copy on an equal stamp, and reports it when the figures differ', async () => {
    const index = await make();
    const partnerId = freshPartnerId();
    const first = summary('T-1', 1, '2026-03-01T10:00:00Z', 1);
    await index.applyBatch(partnerId, ...day, [first], batch(1, 1));
    // The same transaction again in another batch, its stamp written with another offset: the same
    // figures, so left as stored, naming the batch of the stored copy for the caller to compare the rest.
    const again = { ...first, last_modified_at: '2026-03-01T05:00:00-05:00', batch_seq: 2, batch_id: 'batch-2' };
    expect(await index.applyBatch(partnerId, ...day, [again], batch(2, 1))).toEqual({
      stale: new Set(),
      conflicting: new Set(),
      keptFrom: new Map([['T-1', 'batch-1']]),
    });
    // The stored copy's own batch again (a retry): nothing to compare.
    expect(await index.applyBatch(partnerId, ...day, [first], batch(1, 1))).toEqual({ stale: new Set(), conflicting: new Set() });
    // Changed without version + 1 or a later last_modified_at: left as stored, and said so.
    const changed = { ...first, tip_amount: '1.00', batch_seq: 3, batch_id: 'batch-3' };
    expect(await index.applyBatch(partnerId, ...day, [changed], batch(3, 1))).toEqual({ stale: new Set(), conflicting: new Set(['T-1']) });
    const transactions = (await listed(index, partnerId)).flatMap((row) => (row.type === 'transaction' ? [row.summary] : []));
    expect(transactions).toEqual([first]);
  });

  it('keeps store-days and partners apart', async () => {
    const index = await make();
    const partnerId = freshPartnerId();
    await index.applyBatch(partnerId, 'S/1', '2026-03-02', [summary('T-1', 1, '2026-03-02T10:00:00Z', 1)], batch(1, 1));
    await index.applyBatch(freshPartnerId(), ...day, [summary('T-2', 1, '2026-03-01T10:00:00Z', 1)], batch(1, 1));
    expect(await listed(index, partnerId)).toEqual([]);
  });

  it("lists a day's batches for HQ in batch-id order, one more than asked at most", async () => {
    const index = await make();
    const partnerId = freshPartnerId();
    for (const seq of [3, 1, 2])
      await index.applyBatch(partnerId, ...day, [summary(`T-${seq}`, 1, '2026-03-01T10:00:00Z', seq)], batch(seq, 1));
    await index.applyBatch(partnerId, 'S/2', day[1], [summary('T-9', 1, '2026-03-01T10:00:00Z', 9)], batch(9, 1));
    expect(await index.listDayBatches(partnerId, ...day, 10)).toEqual([batch(1, 1), batch(2, 1), batch(3, 1)]);
    expect(await index.listDayBatches(partnerId, ...day, 1)).toEqual([batch(1, 1), batch(2, 1)]);
    expect(await index.listDayBatches(freshPartnerId(), ...day, 10)).toEqual([]);
  });

  it("reads one transaction's row, and removes it only while it is as read", async () => {
    const index = await make();
    const partnerId = freshPartnerId();
    const long = 'T/'.padEnd(300, '漢');
    const v1 = summary(long, 1, '2026-03-01T10:00:00Z', 1);
    await index.applyBatch(partnerId, ...day, [v1], batch(1, 1));
    const read = await index.getRecord(partnerId, ...day, long);
    expect(read?.summary).toEqual(v1);
    expect(await index.getRecord(partnerId, 'S/1', '2026-03-02', long)).toBeUndefined();

    const v2 = summary(long, 2, '2026-03-01T11:00:00Z', 2);
    await index.applyBatch(partnerId, ...day, [v2], batch(2, 1));
    // Read before v2 replaced it: the removal is refused and v2 stays.
    expect(await index.removeRecord(partnerId, ...day, long, read?.etag ?? '')).toBe(false);
    const current = await index.getRecord(partnerId, ...day, long);
    expect(current?.summary).toEqual(v2);
    expect(await index.removeRecord(partnerId, ...day, long, current?.etag ?? '')).toBe(true);
    expect(await index.getRecord(partnerId, ...day, long)).toBeUndefined();
    expect(await index.removeRecord(partnerId, ...day, long, current?.etag ?? '')).toBe(false);
    expect((await listed(index, partnerId)).filter((row) => row.type === 'transaction')).toEqual([]);
  });

  it('marks a transaction moved: never listed, and older versions kept out', async () => {
    const index = await make();
    const partnerId = freshPartnerId();
    const movedTo = { storeId: 'S#2', businessDate: '2026-03-05' };
    await index.applyBatch(partnerId, ...day, [summary('T-1', 1, '2026-03-01T10:00:00Z', 1)], batch(1, 1));
    const read = await index.getRecord(partnerId, ...day, 'T-1');
    const moved = { stamp: { version: 3, last_modified_at: '2026-03-05T10:00:00Z' }, movedTo };
    expect(await index.markMoved(partnerId, ...day, 'T-1', moved, read?.etag)).toBe(true);
    // Where no row is, the mark is created; where one is, only its ETag replaces it.
    expect(await index.markMoved(partnerId, ...day, 'T-2', moved, undefined)).toBe(true);
    expect(await index.markMoved(partnerId, ...day, 'T-2', moved, undefined)).toBe(false);
    expect(await index.markMoved(partnerId, ...day, 'T-1', moved, read?.etag)).toBe(false);
    expect(await index.getRecord(partnerId, ...day, 'T-1')).toEqual({ ...moved, etag: anyString() });
    expect((await listed(index, partnerId)).filter((row) => row.type === 'transaction')).toEqual([]);

    // Version 2 is older than the version that moved it; version 4 moves it back.
    const v2 = summary('T-1', 2, '2026-03-01T12:00:00Z', 2);
    expect(await index.applyBatch(partnerId, ...day, [v2], batch(2, 1))).toEqual({ stale: new Set(['T-1']), conflicting: new Set() });
    const v4 = summary('T-1', 4, '2026-03-06T12:00:00Z', 3);
    expect(await index.applyBatch(partnerId, ...day, [v4], batch(3, 1))).toEqual({ stale: new Set(), conflicting: new Set() });
    expect((await listed(index, partnerId)).flatMap((row) => (row.type === 'transaction' ? [row.summary] : []))).toEqual([v4]);
  });
}
