import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { ControlTotals } from '../../../../src/domain/reconciliation/ControlTotals.js';
import type { ReconciliationRecord, ResultToSave } from '../../../../src/storage/ReconciliationRepository.js';
import type { Reconciliations } from '../../../../src/services/ports/Reconciliations.js';
import { freshPartnerId } from './freshIds.js';
import { nothingToSay } from '../../../fixtures/diagnosisFixtures.js';

const expected: ControlTotals = {
  trade_record_count: 2,
  item_row_count: 4,
  payment_row_count: 2,
  net_sales_amount: '10.00',
  tax_amount: '0.80',
  tip_amount: '0.00',
  payment_total_amount: '10.80',
};
const day = ['S/1', '2026-03-01'] as const;
/** A MATCHED result to save (with a run number added). */
const matchedResult = {
  status: 'MATCHED' as const,
  checkedAt: '2026-03-02T10:15:00.000Z',
  actual: expected,
  differences: [],
  diagnosis: nothingToSay,
};

/** What every Reconciliations implementation does. */
export function reconciliationsSuite(make: () => Promise<Reconciliations>): void {
  it('orders two closes received at the same instant by batch_id, as the close row does', async () => {
    const results = await make();
    const receivedAt = '2026-03-02T09:00:00.000Z';
    for (const order of [
      ['close-b', 'close-a'],
      ['close-a', 'close-b'],
    ]) {
      const partnerId = freshPartnerId();
      for (const batchId of order) await results.markReceived(partnerId, ...day, { batchId, receivedAt, expected });
      expect((await results.get(partnerId, ...day))?.closeBatchId).toBe('close-b');
    }
  });

  it('marks a day RECEIVED for the latest close and records results only for that close', async () => {
    const results = await make();
    const partnerId = freshPartnerId();
    await results.markReceived(partnerId, ...day, { batchId: 'close-2', receivedAt: '2026-03-02T10:00:00.000Z', expected });
    await results.markReceived(partnerId, ...day, { batchId: 'close-1', receivedAt: '2026-03-02T09:00:00.000Z', expected });
    expect(await results.get(partnerId, ...day)).toEqual({
      partnerId,
      storeId: 'S/1',
      businessDate: '2026-03-01',
      status: 'RECEIVED',
      closeBatchId: 'close-2',
      closeReceivedAt: '2026-03-02T10:00:00.000Z',
      checkedAt: null,
      expected,
      actual: null,
      differences: [],
      diagnosis: null,
      runId: null,
      runNumber: null,
      changed: false,
      pendingRun: null,
    } satisfies ReconciliationRecord);

    const result = {
      status: 'MISMATCHED' as const,
      checkedAt: '2026-03-02T10:15:00.000Z',
      actual: { ...expected, trade_record_count: 1 },
      differences: ['trade_record_count'],
      diagnosis: { ...nothingToSay, missing_batch_seqs: [2], missing_batch_count: 1 },
    };
    const save = (closeBatchId: string, toSave: Omit<ResultToSave, 'runNumber'>, partner = partnerId) =>
      results.saveResult(partner, ...day, closeBatchId, { ...toSave, runNumber: 1 });
    expect(await save('close-1', result)).toBeUndefined();
    expect(await save('close-2', { ...result, runId: 'run-1' })).toMatchObject({
      ...result,
      runId: 'run-1',
      runNumber: 1,
      changed: false,
    });
    expect(await results.get(partnerId, ...day)).toMatchObject({ ...result, closeBatchId: 'close-2', expected });
    expect(await save('close-2', result, freshPartnerId())).toBeUndefined();
    // The same figures again are no change; other figures are.
    expect((await save('close-2', result))?.changed).toBe(false);
    const matched = { ...result, status: 'MATCHED' as const, actual: expected, differences: [] };
    expect((await save('close-2', matched))?.changed).toBe(true);
  });

  it('saves a result against the day as it is when it writes, whatever was read ahead of it', async () => {
    const results = await make();
    const partnerId = freshPartnerId();
    const result = matchedResult;
    await results.markReceived(partnerId, ...day, { batchId: 'close-1', receivedAt: '2026-03-02T09:00:00.000Z', expected });
    const beforeLaterClose = results.readAhead?.(partnerId, ...day);
    await results.markReceived(partnerId, ...day, { batchId: 'close-2', receivedAt: '2026-03-02T10:00:00.000Z', expected });
    expect(await results.saveResult(partnerId, ...day, 'close-1', { ...result, runNumber: 1 }, beforeLaterClose)).toBeUndefined();

    const beforeRunNoted = results.readAhead?.(partnerId, ...day);
    const lost = { now: new Date('2026-03-02T10:20:00.000Z'), lostAfterMs: 3_600_000 };
    const run = (runId: string) => ({ runId, dueAt: '2026-03-02T10:20:00.000Z' });
    expect(await results.notePendingRun(partnerId, ...day, run('late-1'), lost)).toEqual({ closeBatchId: 'close-2' });
    expect(await results.saveResult(partnerId, ...day, 'close-2', { ...result, runNumber: 1 }, beforeRunNoted)).toMatchObject(result);
    // The run noted after the read is still pending: another is not noted.
    expect(await results.notePendingRun(partnerId, ...day, run('late-2'), lost)).toBeUndefined();
    // The same run again (its message may never have been sent) is returned, to be sent again.
    expect(await results.notePendingRun(partnerId, ...day, run('late-1'), lost)).toEqual({ closeBatchId: 'close-2' });
  });

  it('clears the pending run of a run that starts, whatever was read ahead of it', async () => {
    const results = await make();
    const partnerId = freshPartnerId();
    const lost = { now: new Date('2026-03-02T10:20:00.000Z'), lostAfterMs: 3_600_000 };
    const run = (runId: string) => ({ runId, dueAt: '2026-03-02T10:20:00.000Z' });
    await results.markReceived(partnerId, ...day, { batchId: 'close-1', receivedAt: '2026-03-02T09:00:00.000Z', expected });

    // Read before the run was noted: the run is cleared all the same, so a later batch notes one of its own.
    const beforeRunNoted = results.readAhead?.(partnerId, ...day);
    expect(await results.notePendingRun(partnerId, ...day, run('late-1'), lost)).toEqual({ closeBatchId: 'close-1' });
    expect((await results.get(partnerId, ...day))?.pendingRun).toEqual(run('late-1'));
    await results.startRun(partnerId, ...day, 'late-1', beforeRunNoted);
    expect((await results.get(partnerId, ...day))?.pendingRun).toBeNull();
    expect(await results.notePendingRun(partnerId, ...day, run('late-2'), lost)).toEqual({ closeBatchId: 'close-1' });

    // Read while the run was pending, then a later close made its own run the pending one: that one stays.
    const whilePending = results.readAhead?.(partnerId, ...day);
    await results.markReceived(partnerId, ...day, {
      batchId: 'close-2',
      receivedAt: '2026-03-02T10:00:00.000Z',
      expected,
      run: run('close-close-2'),
    });
    await results.startRun(partnerId, ...day, 'late-2', whilePending);
    expect(await results.notePendingRun(partnerId, ...day, run('late-3'), lost)).toBeUndefined();

    // The record answered from a read ahead is the one read.
    const now = results.readAhead?.(partnerId, ...day);
    expect(await results.get(partnerId, ...day, now)).toEqual(await results.get(partnerId, ...day));
  });

  it('numbers the runs of a day, and stores no result over that of a run started after it', async () => {
    const results = await make();
    const partnerId = freshPartnerId();
    const matched = matchedResult;
    const mismatched = {
      ...matchedResult,
      status: 'MISMATCHED' as const,
      actual: { ...expected, trade_record_count: 1 },
      differences: ['trade_record_count'],
    };
    // No close recorded: nothing to number.
    expect(await results.startRun(partnerId, ...day, undefined)).toBe(0);
    await results.markReceived(partnerId, ...day, { batchId: 'close-1', receivedAt: '2026-03-02T09:00:00.000Z', expected });
    const first = await results.startRun(partnerId, ...day, undefined);
    const second = await results.startRun(partnerId, ...day, 'late-1');
    expect(second).toBeGreaterThan(first);

    // The run started later stores its result first: the earlier one's is not stored over it.
    expect(await results.saveResult(partnerId, ...day, 'close-1', { ...matched, runNumber: second })).toMatchObject({ status: 'MATCHED' });
    expect(await results.saveResult(partnerId, ...day, 'close-1', { ...mismatched, runNumber: first })).toBeUndefined();
    expect(await results.get(partnerId, ...day)).toMatchObject({ status: 'MATCHED', actual: expected });

    // A later close's runs are numbered after the earlier close's, and store their results.
    await results.markReceived(partnerId, ...day, { batchId: 'close-2', receivedAt: '2026-03-02T10:00:00.000Z', expected });
    const third = await results.startRun(partnerId, ...day, undefined);
    expect(third).toBeGreaterThan(second);
    expect(await results.saveResult(partnerId, ...day, 'close-2', { ...mismatched, runNumber: third })).toMatchObject({
      status: 'MISMATCHED',
    });

    // A run whose read ahead was taken before another run started is numbered after it all the same.
    const readBefore = results.readAhead?.(partnerId, ...day);
    const fourth = await results.startRun(partnerId, ...day, undefined);
    expect(await results.startRun(partnerId, ...day, undefined, readBefore)).toBeGreaterThan(fourth);
  });

  it('stores one result per run id: a copy of a run, started beside it, stores none over it', async () => {
    const results = await make();
    const partnerId = freshPartnerId();
    await results.markReceived(partnerId, ...day, { batchId: 'close-1', receivedAt: '2026-03-02T09:00:00.000Z', expected });
    const first = await results.startRun(partnerId, ...day, 'late-1');
    const copy = await results.startRun(partnerId, ...day, 'late-1');
    expect(await results.saveResult(partnerId, ...day, 'close-1', { ...matchedResult, runId: 'late-1', runNumber: first })).toMatchObject({
      runId: 'late-1',
    });
    const later = { ...matchedResult, checkedAt: '2026-03-02T11:00:00.000Z', runId: 'late-1', runNumber: copy };
    expect(await results.saveResult(partnerId, ...day, 'close-1', later)).toBeUndefined();
    expect(await results.get(partnerId, ...day)).toMatchObject({ runId: 'late-1', checkedAt: matchedResult.checkedAt });

    // A run of another id, or of none, stores its result as before.
    const next = await results.startRun(partnerId, ...day, 'late-2');
    expect(await results.saveResult(partnerId, ...day, 'close-1', { ...later, runId: 'late-2', runNumber: next })).toMatchObject({
      runId: 'late-2',
      checkedAt: later.checkedAt,
    });
    const unnamed = await results.startRun(partnerId, ...day, undefined);
    expect(await results.saveResult(partnerId, ...day, 'close-1', { ...matchedResult, runNumber: unnamed })).toBeDefined();
  });

  it('lists results by partner, status and business date', async () => {
    const results = await make();
    const partnerId = freshPartnerId();
    const close = { batchId: 'close-1', receivedAt: '2026-03-02T09:00:00.000Z', expected };
    await results.markReceived(partnerId, 'S-1', '2026-03-01', close);
    await results.markReceived(partnerId, 'S-2', '2026-03-01', close);
    await results.markReceived(partnerId, 'S-1', '2026-03-02', close);
    await results.saveResult(partnerId, 'S-2', '2026-03-01', 'close-1', { ...matchedResult, runNumber: 1 });
    const list = async (filter: Parameters<Reconciliations['list']>[0]) => {
      const found: string[] = [];
      for await (const r of results.list(filter)) found.push(`${r.storeId} ${r.businessDate} ${r.status}`);
      return found.sort();
    };
    expect(await list({ partnerId })).toEqual(['S-1 2026-03-01 RECEIVED', 'S-1 2026-03-02 RECEIVED', 'S-2 2026-03-01 MATCHED']);
    expect(await list({ partnerId, status: 'RECEIVED', businessDate: '2026-03-01' })).toEqual(['S-1 2026-03-01 RECEIVED']);
  });

  it('lists one partner apart from partners whose ids start like its own, within a date range', async () => {
    const results = await make();
    // Ids as the HQ tool creates them (letters, digits, '.', '_', '-'), one a prefix of the others.
    const partnerId = `p${randomUUID().slice(0, 8)}`;
    const close = { batchId: 'close-1', receivedAt: '2026-03-09T09:00:00.000Z', expected };
    for (const other of [`${partnerId}-2`, `${partnerId}.x`, `${partnerId}_`, partnerId.slice(0, -1), `${partnerId}Z`]) {
      await results.markReceived(other, 'S-1', '2026-03-02', close);
    }
    for (const date of ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04']) await results.markReceived(partnerId, 'S-1', date, close);
    await results.markReceived(partnerId, 'S~2', '2026-03-03', close);
    const found: string[] = [];
    for await (const r of results.list({ partnerId, from: '2026-03-02', to: '2026-03-03' }))
      found.push(`${r.partnerId} ${r.storeId} ${r.businessDate}`);
    expect(found.sort()).toEqual([`${partnerId} S-1 2026-03-02`, `${partnerId} S-1 2026-03-03`, `${partnerId} S~2 2026-03-03`]);
  });

  it("lists one store's days in a date range, both ends included, in date order", async () => {
    const results = await make();
    const partnerId = freshPartnerId();
    for (const [store, date] of [
      ['S-1', '2026-03-03'],
      ['S-1', '2026-03-01'],
      ['S-1', '2026-03-02'],
      ['S-1', '2026-03-04'],
      ['S-2', '2026-03-02'],
    ] as const) {
      await results.markReceived(partnerId, store, date, {
        batchId: `close-${store}-${date}`,
        receivedAt: '2026-03-05T09:00:00.000Z',
        expected,
      });
    }
    const listed = await results.listRange(partnerId, 'S-1', '2026-03-01', '2026-03-03');
    expect(listed.map((r) => `${r.storeId} ${r.businessDate} ${r.status}`)).toEqual([
      'S-1 2026-03-01 RECEIVED',
      'S-1 2026-03-02 RECEIVED',
      'S-1 2026-03-03 RECEIVED',
    ]);
    expect(await results.listRange(freshPartnerId(), 'S-1', '2026-03-01', '2026-03-03')).toEqual([]);
  });
}
