import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ControlTotals } from '../../src/domain/reconciliation/ControlTotals.js';
import { decodeMessageText } from '../../src/localhost/QueuePoller.js';
import { LateDataScheduler } from '../../src/services/LateDataScheduler.js';
import { pendingRunLostAfterMs } from '../../src/services/pendingRuns.js';
import { ReconciliationQuery } from '../../src/services/ReconciliationQuery.js';
import { TenantGuard } from '../../src/services/TenantGuard.js';
import type { ReconcileMessage } from '../../src/services/ReconcileMessage.js';
import { JsonQueue } from '../../src/storage/JsonQueue.js';
import { ReconciliationRepository } from '../../src/storage/ReconciliationRepository.js';
import { tableNames } from '../../src/storage/storageNames.js';
import { azuriteQueue, azuriteTable } from '../support/azuriteClients.js';
import { nothingToSay } from '../fixtures/diagnosisFixtures.js';
import { InMemoryStoreRegistrations } from '../support/memory/InMemoryStoreRegistrations.js';

/*
 * The late-data schedule on the storage emulator: one run noted per day while it is pending, a new
 * one once the run started, a lost one (noted, never sent) replaced once long overdue, and a new
 * close taking over the note with its own run.
 */

const totals: ControlTotals = {
  trade_record_count: 1,
  item_row_count: 1,
  payment_row_count: 1,
  net_sales_amount: '1.00',
  tax_amount: '0.00',
  tip_amount: '0.00',
  payment_total_amount: '1.00',
};

async function setUp() {
  const results = new ReconciliationRepository(await azuriteTable(tableNames.reconciliations));
  const queueClient = await azuriteQueue(`late-${randomUUID().slice(0, 8)}`);
  let now = Date.parse('2026-03-05T10:00:00Z');
  const scheduler = new LateDataScheduler({
    results,
    reconcileQueue: new JsonQueue<ReconcileMessage>(queueClient),
    delaySeconds: 60,
    clock: () => new Date(now),
  });
  // Delayed messages are invisible to a peek: they are counted through the queue's properties.
  const count = async (): Promise<number> => (await queueClient.getProperties()).approximateMessagesCount ?? 0;
  const day = { partnerId: `p-${randomUUID().slice(0, 8)}`, storeId: 'S/1', businessDate: '2026-03-04' };
  const registrations = new InMemoryStoreRegistrations();
  await registrations.register(day.partnerId, [day.storeId], new Date(now));
  const query = new ReconciliationQuery(new TenantGuard(registrations, () => new Date(now), 0), results, () => new Date(now));
  return {
    results,
    scheduler,
    query,
    queueClient,
    count,
    day,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('LateDataScheduler', () => {
  it('schedules nothing for a day without a close', async () => {
    const { scheduler, count, day } = await setUp();
    expect(await scheduler.batchCommitted(day.partnerId, day.storeId, day.businessDate, randomUUID())).toBe('not-needed');
    expect(await count()).toBe(0);
  });

  it('notes one run per day while it is pending, and the next once that run has started', async () => {
    const { results, scheduler, count, queueClient, day } = await setUp();
    await results.markReceived(day.partnerId, day.storeId, day.businessDate, {
      batchId: 'close-1',
      receivedAt: '2026-03-05T09:00:00.000Z',
      expected: totals,
    });
    const commit = () => scheduler.batchCommitted(day.partnerId, day.storeId, day.businessDate, randomUUID());
    expect(await commit()).toBe('scheduled');
    expect(await commit()).toBe('not-needed');
    expect(await commit()).toBe('not-needed');
    expect(await count()).toBe(1);

    // The run becomes visible after the delay; read it as the host would, then start it.
    const [message] = (await queueClient.receiveMessages({ numberOfMessages: 1 })).receivedMessageItems;
    expect(message).toBeUndefined();
    const stored = await results.get(day.partnerId, day.storeId, day.businessDate);
    expect(stored?.closeBatchId).toBe('close-1');
    // The run's id is what the note holds: clearing another id changes nothing.
    await results.startRun(day.partnerId, day.storeId, day.businessDate, 'late-someone-else');
    expect(await commit()).toBe('not-needed');
  });

  it('a run clears its note as it starts; a batch after that schedules the next run, for the close in effect', async () => {
    const { results, scheduler, count, day, queueClient } = await setUp();
    await results.markReceived(day.partnerId, day.storeId, day.businessDate, {
      batchId: 'close-1',
      receivedAt: '2026-03-05T09:00:00.000Z',
      expected: totals,
      run: { runId: 'close-close-1', dueAt: '2026-03-05T10:15:00.000Z' },
    });
    // The close's own run is pending: a batch before it starts needs nothing more.
    expect(await scheduler.batchCommitted(day.partnerId, day.storeId, day.businessDate, randomUUID())).toBe('not-needed');
    await results.startRun(day.partnerId, day.storeId, day.businessDate, 'close-close-1');
    expect(await scheduler.batchCommitted(day.partnerId, day.storeId, day.businessDate, randomUUID())).toBe('scheduled');
    expect(await count()).toBe(1);
    await queueClient.clearMessages();

    // A corrected close takes the note over with its own run.
    await results.markReceived(day.partnerId, day.storeId, day.businessDate, {
      batchId: 'close-2',
      receivedAt: '2026-03-05T09:30:00.000Z',
      expected: totals,
      run: { runId: 'close-close-2', dueAt: '2026-03-05T10:45:00.000Z' },
    });
    expect(await scheduler.batchCommitted(day.partnerId, day.storeId, day.businessDate, randomUUID())).toBe('not-needed');
    expect(await count()).toBe(0);
  });

  it('the replay of a change cut off after noting its run sends the run again; another change does not', async () => {
    const { results, scheduler, count, day } = await setUp();
    await results.markReceived(day.partnerId, day.storeId, day.businessDate, {
      batchId: 'close-1',
      receivedAt: '2026-03-05T09:00:00.000Z',
      expected: totals,
    });
    // As a push cut off between the note and the message leaves it: noted, nothing queued.
    await results.notePendingRun(
      day.partnerId,
      day.storeId,
      day.businessDate,
      { runId: 'late-batch-7', dueAt: '2026-03-05T10:01:00.000Z' },
      {
        now: new Date('2026-03-05T10:00:00Z'),
        lostAfterMs: 15 * 60_000,
      },
    );
    expect(await count()).toBe(0);
    expect(await scheduler.batchCommitted(day.partnerId, day.storeId, day.businessDate, 'batch-8')).toBe('not-needed');
    expect(await count()).toBe(0);
    // The push of batch-7 sent again (or finished by the sweep): its run is sent.
    expect(await scheduler.batchCommitted(day.partnerId, day.storeId, day.businessDate, 'batch-7')).toBe('scheduled');
    expect(await count()).toBe(1);
  });

  it('a note whose message was never sent is taken as lost 15 minutes past its due time', async () => {
    const { results, scheduler, count, day, advance } = await setUp();
    await results.markReceived(day.partnerId, day.storeId, day.businessDate, {
      batchId: 'close-1',
      receivedAt: '2026-03-05T09:00:00.000Z',
      expected: totals,
      // Noted, due at 10:00, and (as after a crash before the send) no message.
      run: { runId: 'close-close-1', dueAt: '2026-03-05T10:00:00.000Z' },
    });
    advance(14 * 60_000);
    expect(await scheduler.batchCommitted(day.partnerId, day.storeId, day.businessDate, randomUUID())).toBe('not-needed');
    advance(2 * 60_000);
    expect(await scheduler.batchCommitted(day.partnerId, day.storeId, day.businessDate, randomUUID())).toBe('scheduled');
    expect(await count()).toBe(1);
  });
});

describe('the message sent', () => {
  it('names the close in effect, the run and when it is due, base64 JSON as the queue trigger reads it', async () => {
    const { results, day, queueClient } = await setUp();
    let now = Date.parse('2026-03-05T10:00:00Z');
    const scheduler = new LateDataScheduler({
      results,
      reconcileQueue: new JsonQueue<ReconcileMessage>(queueClient),
      delaySeconds: 0,
      clock: () => new Date(now),
    });
    await results.markReceived(day.partnerId, day.storeId, day.businessDate, {
      batchId: 'close-9',
      receivedAt: '2026-03-05T09:00:00.000Z',
      expected: totals,
    });
    now += 1;
    const batchId = randomUUID();
    expect(await scheduler.batchCommitted(day.partnerId, day.storeId, day.businessDate, batchId)).toBe('scheduled');
    const [peeked] = (await queueClient.peekMessages()).peekedMessageItems;
    const message = decodeMessageText(peeked?.messageText ?? '')?.value as ReconcileMessage;
    expect(message).toEqual({
      ...day,
      closeBatchId: 'close-9',
      runId: `late-${batchId}`,
      dueAt: '2026-03-05T10:00:00.001Z',
    });
  });

  it("reads RECEIVED to the partner while a late batch's run is to come, the result again once it starts or is taken as lost", async () => {
    const { results, scheduler, query, day, advance } = await setUp();
    const { partnerId, storeId, businessDate } = day;
    await results.markReceived(partnerId, storeId, businessDate, {
      batchId: 'close-1',
      receivedAt: '2026-03-05T09:00:00.000Z',
      expected: totals,
    });
    const runNumber = await results.startRun(partnerId, storeId, businessDate, undefined);
    const matched = { status: 'MATCHED' as const, checkedAt: '2026-03-05T09:15:00.000Z', actual: totals, differences: [] };
    await results.saveResult(partnerId, storeId, businessDate, 'close-1', { ...matched, diagnosis: nothingToSay, runNumber });
    expect(await query.get(partnerId, storeId, businessDate)).toMatchObject({ status: 'MATCHED', actual: totals });

    // A late batch: the stored result does not count it, so it is not the answer any more.
    const cause = randomUUID();
    expect(await scheduler.batchCommitted(partnerId, storeId, businessDate, cause)).toBe('scheduled');
    expect(await query.get(partnerId, storeId, businessDate)).toEqual({
      store_id: storeId,
      business_date: businessDate,
      status: 'RECEIVED',
      checked_at: null,
      expected: totals,
      actual: null,
      differences: [],
      diagnosis: null,
    });

    // A note whose message was never sent stops hiding the result once it is taken as lost...
    advance(60_000 + pendingRunLostAfterMs);
    expect(await query.get(partnerId, storeId, businessDate)).toMatchObject({ status: 'MATCHED' });
    // ...and the run that starts clears it (here: the one the next batch schedules).
    expect(await scheduler.batchCommitted(partnerId, storeId, businessDate, randomUUID())).toBe('scheduled');
    expect((await query.get(partnerId, storeId, businessDate)).status).toBe('RECEIVED');
    const pending = (await results.get(partnerId, storeId, businessDate))?.pendingRun;
    await results.startRun(partnerId, storeId, businessDate, pending?.runId);
    expect(await query.get(partnerId, storeId, businessDate)).toMatchObject({ status: 'MATCHED', actual: totals });
  });
});
