import type { ReconciliationRecord } from '../../src/storage/ReconciliationRepository.js';
import { describe, expect, it } from 'vitest';
import type { DailyClose } from '../../src/domain/model/payloads.js';
import type { TradeRecordSummary } from '../../src/domain/reconciliation/TradeRecordSummary.js';
import { MappingCatalog } from '../../src/services/catalog/MappingCatalog.js';
import { ClosedDayReruns } from '../../src/services/reruns/ClosedDayReruns.js';
import type { ClosedDayRerunMessage } from '../../src/services/reruns/ClosedDayRerunMessage.js';
import { allNotes } from '../support/allNotes.js';
import { deferred } from '../support/deferred.js';
import { DayReconciler } from '../../src/services/DayReconciler.js';
import { maxNotedPaymentTypes } from '../../src/services/maxNotedPaymentTypes.js';
import { FragmentPrefetch } from '../../src/services/reports/FragmentPrefetch.js';
import type { StoreDayRebuild, StoreDayReportOutcome } from '../../src/services/reports/StoreDayReportService.js';
import type { ReconciledStoreDay } from '../../src/reports/ReconciledStoreDay.js';
import { StorageError } from '../../src/errors/StorageError.js';
import { ReportDataError } from '../../src/reports/ReportDataError.js';
import type { ReconcileMessage } from '../../src/services/ReconcileMessage.js';
import { buildDailyClose } from '../fixtures/masterDataFixtures.js';
import { InMemoryDayCloses } from '../support/memory/InMemoryDayCloses.js';
import { InMemoryMappingPointers } from '../support/memory/InMemoryMappingPointers.js';
import { InMemoryPaymentDirections } from '../support/memory/InMemoryPaymentDirections.js';
import { InMemoryQueue } from '../support/memory/InMemoryQueue.js';
import { InMemoryRawBatches } from '../support/memory/InMemoryRawBatches.js';
import { InMemoryReconciliations } from '../support/memory/InMemoryReconciliations.js';
import { InMemoryTradeRecords } from '../support/memory/InMemoryTradeRecords.js';
import { InMemoryUnmappedCodes } from '../support/memory/InMemoryUnmappedCodes.js';
import { InMemoryUsedPaymentTypes } from '../support/memory/InMemoryUsedPaymentTypes.js';

// Unit tests of the reconciliation use case on the in-memory ports: no storage, no waiting.

const partnerId = 'p-1';
const checkedAt = new Date('2026-03-02T10:15:00Z');

function sale(id: string, sourceType: string, total: string): TradeRecordSummary {
  return {
    trade_record_id: id,
    version: 1,
    last_modified_at: '2026-03-01T12:00:00Z',
    source_transaction_type: sourceType,
    currency: 'USD',
    total_amount: total,
    tax_amount: '0.00',
    tip_amount: '0.00',
    item_row_count: 1,
    payment_row_count: 1,
    payments: [{ payment_type: 'SALE', amount: total }],
    batch_seq: 1,
    batch_id: 'batch-1',
  };
}

/** A sale of 10.00 paid 6.00 by a partner's own payment type and the rest by card (SALE). */
function paidWith(id: string, paymentType: string): TradeRecordSummary {
  return {
    ...sale(id, 'S01', '10.00'),
    payment_row_count: 2,
    payments: [
      { payment_type: paymentType, amount: '6.00' },
      { payment_type: 'SALE', amount: '4.00' },
    ],
  };
}

function closeFor(records: readonly TradeRecordSummary[], netSales: string, paid: string): DailyClose {
  return {
    ...buildDailyClose(),
    batch_id: 'close-1',
    batch_count: 1,
    trade_record_count: records.length,
    item_row_count: records.length,
    payment_row_count: records.reduce((rows, r) => rows + r.payment_row_count, 0),
    net_sales_amount: netSales,
    tax_amount: '0.00',
    tip_amount: '0.00',
    payment_total_amount: paid,
  };
}

/**
 * The day's report writer as the reconciler sees it: records each write and rebuild, and fails
 * the first write the way storage does when it times out.
 */
class FlakyReports {
  readonly calls: string[] = [];
  /** Writes or rebuilds to fail for good, the way a value the files cannot hold does. */
  permanentFailures = 0;

  constructor(public failures = 1) {}

  private failure(): Error | undefined {
    if (this.failures > 0) {
      this.failures -= 1;
      return new StorageError('unavailable', undefined, 'ETIMEDOUT');
    }
    if (this.permanentFailures > 0) {
      this.permanentFailures -= 1;
      return new ReportDataError('an amount the files cannot hold');
    }
    return undefined;
  }

  prefetch(): FragmentPrefetch {
    return new FragmentPrefetch(partnerId, { get: () => Promise.resolve(undefined) });
  }

  write(day: ReconciledStoreDay): Promise<StoreDayReportOutcome> {
    this.calls.push(`write ${day.status}`);
    const failure = this.failure();
    return failure ? Promise.reject(failure) : Promise.resolve(outcome);
  }

  rebuild(partner: string, storeId: string, businessDate: string): Promise<StoreDayRebuild> {
    this.calls.push(`rebuild ${partner} ${storeId} ${businessDate}`);
    const failure = this.failure();
    return failure ? Promise.reject(failure) : Promise.resolve({ ...outcome, check: { kind: 'agrees' as const } });
  }
}

const outcome: StoreDayReportOutcome = {
  status: 'written',
  counts: { sales_transactions: 1, sales_lines: 1, sales_payments: 1, unmapped_transactions: 0 },
  generatedAt: checkedAt.toISOString(),
  batches: { staged: 0, converted: 1 },
  sales: { sales: [], unmapped: [] },
};

function newPorts() {
  return {
    closes: new InMemoryDayCloses(),
    index: new InMemoryTradeRecords(),
    results: new InMemoryReconciliations(),
    pointers: new InMemoryMappingPointers(),
    rawBatches: new InMemoryRawBatches(),
    paymentDirections: new InMemoryPaymentDirections(),
    unmappedUsage: new InMemoryUnmappedCodes(),
    paymentTypeUsage: new InMemoryUsedPaymentTypes(),
    queue: new InMemoryQueue<ReconcileMessage>(),
  };
}
type Ports = ReturnType<typeof newPorts>;

async function world(records: readonly TradeRecordSummary[], close: DailyClose, reports?: FlakyReports, failedPublications = 0) {
  const ports = newPorts();
  const mappings = new MappingCatalog(ports.pointers, ports.rawBatches);
  const stored: ReconciliationRecord[] = [];
  let publicationsToFail = failedPublications;
  const events = {
    resultStored: (record: ReconciliationRecord) => {
      if (publicationsToFail > 0) {
        publicationsToFail -= 1;
        return Promise.reject(new StorageError('unavailable', undefined, 'ETIMEDOUT'));
      }
      stored.push(record);
      return Promise.resolve();
    },
  };
  const reconciler = new DayReconciler({ ...ports, mappings, clock: () => checkedAt, events, reports });
  await ports.index.applyBatch(partnerId, close.store_id, close.business_date, records, {
    batchId: 'batch-1',
    batchSeq: 1,
    receivedAt: '2026-03-01T23:00:00.000Z',
    recordCount: records.length,
  });
  await ports.closes.putIfLatest(partnerId, { close, receivedAt: '2026-03-02T09:00:00.000Z' });
  await ports.results.markReceived(partnerId, close.store_id, close.business_date, {
    batchId: close.batch_id,
    receivedAt: '2026-03-02T09:00:00.000Z',
    expected: close,
  });
  const upload = async (batchId: string, mappings: Record<string, string>, receivedAt: string) => {
    const body = {
      batch_id: batchId,
      mappings: Object.entries(mappings).map(([source_code, standard_code]) => ({ source_code, standard_code })),
    };
    await ports.rawBatches.putOnce(partnerId, batchId, new TextEncoder().encode(JSON.stringify(body)), 'sha');
    await ports.pointers.switchTo(partnerId, { batchId, receivedAt, updatedAt: receivedAt });
  };
  const message = { partnerId, storeId: close.store_id, businessDate: close.business_date, closeBatchId: close.batch_id };
  return {
    ports,
    reconciler,
    upload,
    message,
    stored,
    reruns: rerunsOf(ports, mappings),
  };
}

/** Closed-day reruns on the world's ports, whose messages (and those they send) run at once. */
function rerunsOf(ports: Ports, mappings: MappingCatalog) {
  const rerunQueue = new InMemoryQueue<ClosedDayRerunMessage>();
  const reruns = new ClosedDayReruns({
    unmappedCodes: ports.unmappedUsage,
    paymentTypes: ports.paymentTypeUsage,
    mappingInEffect: (p) => mappings.current(p),
    closes: ports.closes,
    reconcileQueue: ports.queue,
    rerunQueue,
    clock: () => checkedAt,
  });
  const drain = async () => {
    // The array iterator reads the length at each step: a page's follow-up, sent meanwhile, is run too.
    for (const { message } of rerunQueue.sent) await reruns.runPage(message);
    rerunQueue.sent.length = 0;
  };
  return {
    remap: async (partnerId: string) => {
      const { batchId } = await mappings.current(partnerId);
      if (batchId === null) throw new Error('no mapping is in effect to re-run days for');
      await reruns.afterMappingUpload(partnerId, batchId);
      await drain();
    },
    recount: async (partnerId: string, paymentType: string) => {
      await reruns.afterDirectionSet(partnerId, paymentType);
      await drain();
    },
  };
}

const noted = {
  unmapped: (ports: Ports) => allNotes((after) => ports.unmappedUsage.listPage(partnerId, after, 100)),
  days: (ports: Ports, paymentType: string) => allNotes((after) => ports.paymentTypeUsage.listDaysPage(partnerId, paymentType, after, 100)),
};

describe('DayReconciler', () => {
  it('matches a day whose close agrees with the latest versions, stamped with the clock', async () => {
    const records = [sale('T-1', 'S01', '10.00'), sale('T-2', 'S01', '5.50')];
    const { ports, reconciler, upload, message, stored } = await world(records, closeFor(records, '15.50', '15.50'));
    await upload('map-1', { S01: 'SALE' }, '2026-03-01T00:00:00.000Z');
    expect(await reconciler.reconcile(message)).toBe('MATCHED');
    const result = await ports.results.get(partnerId, message.storeId, message.businessDate);
    expect(result).toMatchObject({
      status: 'MATCHED',
      checkedAt: checkedAt.toISOString(),
      differences: [],
    });
    // The stored result is what the partner's events are told of.
    expect(stored).toEqual([result]);
  });

  it("requests the day's rows while the mapping is still being read, and counts them with it", async () => {
    const records = [sale('T-1', 'S01', '10.00')];
    const { ports, reconciler, upload, message } = await world(records, closeFor(records, '10.00', '10.00'));
    await upload('map-1', { S01: 'SALE' }, '2026-03-01T00:00:00.000Z');
    const pointerGate = deferred();
    const getPointer = ports.pointers.getPointer.bind(ports.pointers);
    ports.pointers.getPointer = async (partner) => {
      await pointerGate.promise;
      return getPointer(partner);
    };
    let listingStarted = false;
    const listDay = ports.index.listDay.bind(ports.index);
    ports.index.listDay = async function* (...day) {
      listingStarted = true;
      yield* listDay(...day);
    };
    const run = reconciler.reconcile(message);
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(listingStarted).toBe(true);
    pointerGate.resolve();
    // Counted with the mapping (an unmapped S01 would be left out of net sales and mismatch).
    expect(await run).toBe('MATCHED');
  });

  it('a run that listed the day before a later batch leaves standing the result of the run started after it', async () => {
    const first = sale('T-1', 'S01', '10.00');
    const late = { ...sale('T-2', 'S01', '5.50'), batch_seq: 2, batch_id: 'batch-2' };
    const { ports, reconciler, upload, message, stored } = await world([first], {
      ...closeFor([first, late], '15.50', '15.50'),
      batch_count: 2,
    });
    await upload('map-1', { S01: 'SALE' }, '2026-03-01T00:00:00.000Z');
    // The first run to save is held there: it listed the day before the late batch arrived.
    const reached = deferred();
    const gate = deferred();
    const saveResult = ports.results.saveResult.bind(ports.results);
    let hold = true;
    ports.results.saveResult = async (...args) => {
      if (hold) {
        hold = false;
        reached.resolve();
        await gate.promise;
      }
      return saveResult(...args);
    };
    const slow = reconciler.reconcile(message);
    await reached.promise;
    await ports.index.applyBatch(partnerId, message.storeId, message.businessDate, [late], {
      batchId: 'batch-2',
      batchSeq: 2,
      receivedAt: '2026-03-02T09:30:00.000Z',
      recordCount: 1,
    });
    // The run started after the batch arrived counts it, and its result is stored and told.
    expect(await reconciler.reconcile(message)).toBe('MATCHED');
    gate.resolve();
    expect(await slow).toBe('superseded');
    expect(await ports.results.get(partnerId, message.storeId, message.businessDate)).toMatchObject({
      status: 'MATCHED',
      actual: { trade_record_count: 2, net_sales_amount: '15.50' },
    });
    expect(stored.map((record) => record.status)).toEqual(['MATCHED']);
  });

  it('does nothing for a message whose close was superseded', async () => {
    const records = [sale('T-1', 'S01', '10.00')];
    const { ports, reconciler, message, stored } = await world(records, closeFor(records, '10.00', '10.00'));
    expect(await reconciler.reconcile({ ...message, closeBatchId: 'close-0' })).toBe('superseded');
    expect(stored).toEqual([]);
    expect(await ports.results.get(partnerId, message.storeId, message.businessDate)).toMatchObject({ status: 'RECEIVED' });
  });

  it('notes an unmapped code, and a mapping of it schedules the closed day again', async () => {
    const records = [sale('T-1', 'S01', '10.00'), sale('T-2', 'X99', '4.00')];
    const { ports, reconciler, upload, message, reruns } = await world(records, closeFor(records, '14.00', '14.00'));
    await upload('map-1', { S01: 'SALE' }, '2026-03-01T00:00:00.000Z');
    expect(await reconciler.reconcile(message)).toBe('MISMATCHED');
    const [note] = await noted.unmapped(ports);
    expect(note).toEqual({
      sourceCode: 'X99',
      storeId: message.storeId,
      businessDate: message.businessDate,
      etag: expect.any(String) as string,
    });

    await upload('map-2', { S01: 'SALE', X99: 'SALE' }, '2026-03-02T11:00:00.000Z');
    await reruns.remap(partnerId);
    // A run of its own (its events get ids of their own), due at once, naming the note it runs for.
    expect(ports.queue.sent).toEqual([
      {
        message: {
          ...message,
          runId: expect.stringMatching(/^remap-/) as string,
          dueAt: expect.any(String) as string,
          rerunNotes: [{ kind: 'unmapped', sourceCode: 'X99', etag: note!.etag }],
        },
        visibilityDelaySeconds: 0,
      },
    ]);
    // The note stays until the run has written the day without the code held back.
    expect(await noted.unmapped(ports)).toEqual([note]);
    expect(await reconciler.reconcile(ports.queue.sent[0]!.message)).toBe('MATCHED');
    expect(await noted.unmapped(ports)).toEqual([]);
  });

  it("a rerun's notes stay while its run fails, and until its files are written; what the day still uses is noted again", async () => {
    const records = [sale('T-1', 'S01', '10.00'), sale('T-2', 'X99', '4.00'), paidWith('T-3', 'HOUSE')];
    const reports = new FlakyReports(0);
    const { ports, reconciler, upload, message, reruns } = await world(records, closeFor(records, '24.00', '24.00'), reports);
    await upload('map-1', { S01: 'SALE' }, '2026-03-01T00:00:00.000Z');
    await reconciler.reconcile(message);
    const noteOf = async () => (await noted.unmapped(ports)).map((n) => n.etag);
    const [before] = await noteOf();

    await upload('map-2', { S01: 'SALE', X99: 'SALE' }, '2026-03-02T11:00:00.000Z');
    await reruns.remap(partnerId);
    const run = ports.queue.sent[0]!.message;
    // The run stores its result, then its files fail: the message fails and the note stays.
    reports.failures = 1;
    await expect(reconciler.reconcile(run)).rejects.toBeInstanceOf(StorageError);
    expect(await noteOf()).toEqual([before]);
    // The files fail for good (logged, not retried): their row still holds X99 back, the note stays.
    reports.permanentFailures = 1;
    expect(await reconciler.reconcile(run)).toBe('MISMATCHED');
    expect(await noteOf()).toEqual([before]);
    // Written at last (the retry of the stored result): the note is forgotten.
    expect(await reconciler.reconcile(run)).toBe('MISMATCHED');
    expect(await noteOf()).toEqual([]);

    // A direction's run forgets its note only if the day no longer uses the type: it still does,
    // so the run noted it again and the new note stays for a later change.
    await ports.paymentDirections.set(partnerId, 'HOUSE', 1, checkedAt);
    const [listed] = await noted.days(ports, 'HOUSE');
    await reruns.recount(partnerId, 'HOUSE');
    expect(await reconciler.reconcile(ports.queue.sent[1]!.message)).toBe('MATCHED');
    const [kept] = await noted.days(ports, 'HOUSE');
    expect(kept?.etag).not.toBe(listed?.etag);
  });

  it('notes a payment type without a direction, and a direction HQ sets for it schedules the closed day again', async () => {
    const records = [paidWith('T-1', 'HOUSE'), sale('T-2', 'S01', '5.00')];
    const { ports, reconciler, upload, message, reruns } = await world(records, closeFor(records, '15.00', '15.00'));
    await upload('map-1', { S01: 'SALE' }, '2026-03-01T00:00:00.000Z');
    expect(await reconciler.reconcile(message)).toBe('MISMATCHED');
    expect(await ports.results.get(partnerId, message.storeId, message.businessDate)).toMatchObject({
      actual: { payment_total_amount: '9.00' },
    });
    expect(await noted.days(ports, 'HOUSE')).toEqual([
      { paymentType: 'HOUSE', storeId: message.storeId, businessDate: message.businessDate, etag: expect.any(String) as string },
    ]);

    await ports.paymentDirections.set(partnerId, 'HOUSE', 1, checkedAt);
    await reruns.recount(partnerId, 'HOUSE');
    // A run of its own (its events get ids of their own), due at once, naming the note it runs for.
    expect(ports.queue.sent).toEqual([
      {
        message: {
          ...message,
          runId: expect.stringMatching(/^direction-/) as string,
          dueAt: expect.any(String) as string,
          rerunNotes: [{ kind: 'paymentType', paymentType: 'HOUSE', etag: expect.any(String) as string }],
        },
        visibilityDelaySeconds: 0,
      },
    ]);
    expect(await reconciler.reconcile(ports.queue.sent[0]!.message)).toBe('MATCHED');
    // Still used with its direction now: noted again, for a later change of it.
    expect(await noted.days(ports, 'HOUSE')).toHaveLength(1);

    // HQ corrects the direction: the day is scheduled again and counts the payments the other way.
    await ports.paymentDirections.set(partnerId, 'HOUSE', -1, checkedAt);
    await reruns.recount(partnerId, 'HOUSE');
    expect(ports.queue.sent).toHaveLength(2);
    expect(await reconciler.reconcile(ports.queue.sent[1]!.message)).toBe('MISMATCHED');
    expect(await ports.results.get(partnerId, message.storeId, message.businessDate)).toMatchObject({
      actual: { payment_total_amount: '3.00' },
      differences: ['payment_total_amount'],
    });
  });

  it('a direction set while a run counts with the old directions still gets the day counted with the new one', async () => {
    const records = [paidWith('T-1', 'HOUSE')];
    const { ports, reconciler, upload, message, reruns } = await world(records, closeFor(records, '10.00', '10.00'));
    await upload('map-1', { S01: 'SALE' }, '2026-03-01T00:00:00.000Z');
    // HQ sets the direction after the run read the directions and before it noted the day: the
    // schedule finds no note, so the run itself must count with the new direction.
    const record = ports.paymentTypeUsage.record.bind(ports.paymentTypeUsage);
    let set = false;
    ports.paymentTypeUsage.record = async (...args) => {
      if (!set) {
        set = true;
        await ports.paymentDirections.set(partnerId, 'HOUSE', 1, checkedAt);
        await reruns.recount(partnerId, 'HOUSE');
      }
      return record(...args);
    };
    expect(await reconciler.reconcile(message)).toBe('MATCHED');
    expect(set).toBe(true);
    expect(ports.queue.sent).toEqual([]);
  });

  it('notes the unknown payment types first and at most maxNotedPaymentTypes in all; never a built-in type', async () => {
    const registered = ['REG-1', 'REG-2'];
    const unknown = Array.from({ length: maxNotedPaymentTypes }, (_, i) => `UNKNOWN-${i}`);
    const records = [...registered, ...unknown].map((type, i) => paidWith(`T-${i}`, type));
    const { ports, reconciler, upload, message } = await world(records, closeFor(records, '0.00', '0.00'));
    await upload('map-1', { S01: 'SALE' }, '2026-03-01T00:00:00.000Z');
    for (const type of registered) await ports.paymentDirections.set(partnerId, type, 1, checkedAt);
    await reconciler.reconcile(message);
    for (const type of unknown) expect(await noted.days(ports, type)).toHaveLength(1);
    for (const type of [...registered, 'SALE']) expect(await noted.days(ports, type)).toEqual([]);
  });

  it('a run retried after its files failed writes them from the result it stored', async () => {
    const records = [sale('T-1', 'S01', '10.00')];
    const reports = new FlakyReports();
    const { ports, reconciler, upload, message, stored } = await world(records, closeFor(records, '10.00', '10.00'), reports);
    await upload('map-1', { S01: 'SALE' }, '2026-03-01T00:00:00.000Z');
    const run = { ...message, runId: 'late-1', dueAt: '2026-03-02T10:00:00.000Z' };

    // The result is stored and published, then the files fail: the message fails, to be retried.
    await expect(reconciler.reconcile(run)).rejects.toBeInstanceOf(StorageError);
    expect(await ports.results.get(partnerId, message.storeId, message.businessDate)).toMatchObject({ status: 'MATCHED', runId: 'late-1' });

    // The retry finds its result stored: it publishes it again and writes the files from it.
    expect(await reconciler.reconcile(run)).toBe('MATCHED');
    expect(reports.calls).toEqual(['write MATCHED', `rebuild ${partnerId} ${message.storeId} ${message.businessDate}`]);
    expect(stored.map((r) => r.runId)).toEqual(['late-1', 'late-1']);
  });

  it('a message run twice side by side (sent twice on purpose) stores and publishes one result', async () => {
    const records = [sale('T-1', 'S01', '10.00')];
    const { reconciler, upload, message, stored } = await world(records, closeFor(records, '10.00', '10.00'));
    await upload('map-1', { S01: 'SALE' }, '2026-03-01T00:00:00.000Z');
    const run = { ...message, runId: 'late-1', dueAt: '2026-03-02T10:00:00.000Z' };

    const outcomes = await Promise.all([reconciler.reconcile(run), reconciler.reconcile(run)]);
    expect(outcomes.sort()).toEqual(['MATCHED', 'superseded']);
    expect(stored.map((record) => record.runId)).toEqual(['late-1']);
    // A copy that comes after the result is stored publishes that same result again (same event ids).
    expect(await reconciler.reconcile(run)).toBe('MATCHED');
    expect(stored).toHaveLength(2);
    expect(stored[1]).toEqual(stored[0]);
  });

  it("a failed publication fails the run, but not the day's files; the retry publishes the stored result", async () => {
    const records = [sale('T-1', 'S01', '10.00')];
    const reports = new FlakyReports(0);
    const { ports, reconciler, upload, message, stored } = await world(records, closeFor(records, '10.00', '10.00'), reports, 1);
    await upload('map-1', { S01: 'SALE' }, '2026-03-01T00:00:00.000Z');
    const run = { ...message, runId: 'late-1', dueAt: '2026-03-02T10:00:00.000Z' };

    // The events and the files follow from the stored result side by side: the files are written
    // although the publication failed, and the message fails, to be retried.
    await expect(reconciler.reconcile(run)).rejects.toBeInstanceOf(StorageError);
    expect(reports.calls).toEqual(['write MATCHED']);
    expect(stored).toEqual([]);

    expect(await reconciler.reconcile(run)).toBe('MATCHED');
    expect(stored).toEqual([await ports.results.get(partnerId, message.storeId, message.businessDate)]);
  });
});
