/**
 * The events reconciliation and the batch ledger hand to delivery, through the running service:
 * completed for every result, changed when a late batch changes the day (no new close), one
 * re-reconciliation for late batches arriving together, the same event ids when a run is
 * retried after storing its result, and batch.failed from the ledger's failure path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloudEvent } from '../../../src/events/CloudEvent.js';
import { eventIdFor } from '../../../src/events/eventIdFor.js';
import { DayReconciler } from '../../../src/services/DayReconciler.js';
import type { ReconciliationRecord } from '../../../src/storage/ReconciliationRepository.js';
import { freshBusinessDate, getResult, push, sendClose, settled, setUpPartner } from '../../e2e/support/partnerFlow.js';
import { controlTotals, dailyClose, POS_CODES, tradeBatch } from '../../e2e/support/storeDayKit.js';
import { buildRecord, USD, type StoreDay } from '../../fixtures/tradeRecordFixtures.js';
import { webhookOf } from '../../support/responseBodies.js';
import { eventually, queueDrained, startTestService, type TestPartner, type TestService } from '../../support/startTestService.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.js';
import { independentlyVerified } from './webhookKit.js';

let service: TestService;
let receiver: WebhookReceiver;
beforeAll(async () => {
  // Three seconds between a close (or a late batch) and its run, so that late batches sent one
  // after another land while their run is still pending.
  service = await startTestService({ settings: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', RECONCILE_DELAY_SECONDS: '3' } });
  receiver = await startWebhookReceiver(() => 204);
});
afterAll(async () => {
  await receiver.close();
  await service.stop();
});

type Received = CloudEvent<Record<string, unknown>> & { readonly signedBy: boolean };

async function subscribe(partner: TestPartner): Promise<string> {
  const answer = await service.call(partner, 'PUT', 'webhook', {
    url: `${receiver.url}/${partner.partnerId}`,
    event_types: ['reconciliation.completed', 'reconciliation.changed', 'batch.failed'],
  });
  expect(answer.status).toBe(201);
  return webhookOf(answer).secret ?? '';
}

/** The partner's events received so far, in arrival order, each checked against its signature. */
function eventsOf(partner: TestPartner, secret: string): Received[] {
  return receiver.received
    .filter((r) => r.path === `/hooks/${partner.partnerId}`)
    .map((r) => ({
      ...(JSON.parse(r.body.toString('utf8')) as CloudEvent<Record<string, unknown>>),
      signedBy: independentlyVerified(secret, r.headers, r.body),
    }));
}

const types = (events: readonly Received[]): string[] => events.map((e) => e.type);

function records(day: StoreDay, prefix: string, count: number) {
  return Array.from({ length: count }, (_, i) =>
    buildRecord(day, { id: `${prefix}-${i + 1}`, code: 'S01', items: [{ product: 'X1', name: 'Item', qty: i + 1, unit: 1250 }] }),
  );
}

describe('late data', () => {
  it('late batches after the result change the day from MISMATCHED to MATCHED with no new close; one run, and reconciliation.changed', async () => {
    const { partner, days } = await setUpPartner(service, [USD]);
    const day = days[0]!;
    const secret = await subscribe(partner);
    const all = records(day, 'LATE', 4);
    await push(service, partner, tradeBatch(day, 1, all.slice(0, 1)));
    await sendClose(service, partner, dailyClose(day, 4, controlTotals(USD, all, { mapping: POS_CODES })));
    const first = await settled(service, partner, day);
    expect(first.status).toBe('MISMATCHED');
    await eventually(
      () => Promise.resolve(eventsOf(partner, secret)),
      (events) => events.length >= 1,
    );

    // Three late batches together: each is told the day was closed, and they cause one run. Sent
    // at once, so that all of them land within the delay even on a busy machine.
    const lateWarnings = await Promise.all(all.slice(1).map((record, i) => push(service, partner, tradeBatch(day, i + 2, [record]))));
    for (const warnings of lateWarnings) expect(warnings.map((w) => w.code)).toContain('DAY_ALREADY_CLOSED');
    const after = await settled(service, partner, day, (r) => r.checked_at !== first.checked_at);
    expect(after.status).toBe('MATCHED');
    const events = await eventually(
      () => Promise.resolve(eventsOf(partner, secret)),
      (received) => received.length >= 3,
    );
    // A second, uncoalesced run would have left its message in the reconcile queue (hidden for the
    // delay) and, once run, its events in the delivery queue: with both empty, every run scheduled
    // so far has run and every event it published has reached the receiver.
    await queueDrained(service, 'reconcile');
    await queueDrained(service, 'webhookDeliveries');
    const final = eventsOf(partner, secret);
    // The first run's event comes first; the two events of the second run carry no order.
    expect(types(final)).toHaveLength(3);
    expect(final[0]?.type).toBe('com.example.pos.reconciliation.completed');
    expect(types(final.slice(1)).sort()).toEqual(['com.example.pos.reconciliation.changed', 'com.example.pos.reconciliation.completed']);
    expect(final.every((e) => e.signedBy)).toBe(true);
    expect(events[0]?.data).toMatchObject({ status: 'MISMATCHED', checked_at: first.checked_at });
    const now = await getResult(service, partner, day);
    expect(final[1]?.data).toEqual(now);
    expect(final[2]?.data).toEqual(now);
    expect(final.find((e) => e.type.endsWith('.changed'))?.subject).toBe(`${day.storeId}/${day.businessDate}`);
    expect(new Set(final.map((e) => e.id)).size).toBe(3);
  });

  it('a batch for a day with no close schedules nothing', async () => {
    const { partner, days } = await setUpPartner(service, [USD]);
    const day = { ...days[0]!, businessDate: freshBusinessDate() };
    const secret = await subscribe(partner);
    // Nothing else of this file is pending, so a run scheduled by the push would be the queue's only message.
    await queueDrained(service, 'reconcile');
    const warnings = await push(service, partner, tradeBatch(day, 1, records(day, 'OPEN', 1)));
    expect(warnings.map((w) => w.code)).not.toContain('DAY_ALREADY_CLOSED');
    // A run is scheduled before the push is answered, as a message hidden for the three-second delay.
    expect((await service.services.storage.queues.reconcile.getProperties()).approximateMessagesCount).toBe(0);
    expect((await getResult(service, partner, day)).status).toBe('NOT_RECEIVED');
    expect(eventsOf(partner, secret)).toEqual([]);
  });
});

describe('at least once', () => {
  it('a run retried after storing its result publishes that result again, with the same event ids', async () => {
    const { partner, days } = await setUpPartner(service, [USD]);
    const day = days[0]!;
    const sent = records(day, 'RETRY', 2);
    await push(service, partner, tradeBatch(day, 1, sent));
    const close = dailyClose(day, 1, controlTotals(USD, sent, { mapping: POS_CODES }));
    await sendClose(service, partner, close);
    await settled(service, partner, day);

    // The same run again, by a reconciler whose publication fails the first time.
    const published: ReconciliationRecord[] = [];
    const base = service.services.reconciler as unknown as { deps: ConstructorParameters<typeof DayReconciler>[0] };
    let calls = 0;
    const reconciler = new DayReconciler({
      ...base.deps,
      events: {
        resultStored: (record) => {
          calls += 1;
          if (calls === 1) return Promise.reject(new Error('the delivery queue did not answer'));
          published.push(record);
          return Promise.resolve();
        },
      },
    });
    const message = {
      partnerId: partner.partnerId,
      storeId: day.storeId,
      businessDate: day.businessDate,
      closeBatchId: close.batch_id,
      runId: 'run-retried-1',
    };
    await expect(reconciler.reconcile(message)).rejects.toThrow('did not answer');
    const stored = await getResult(service, partner, day);
    expect(await reconciler.reconcile(message)).toBe('MATCHED');
    // The retry found its result stored: it published that one and computed nothing new.
    expect(await getResult(service, partner, day)).toEqual(stored);
    expect(published).toHaveLength(1);
    expect(published[0]?.checkedAt).toBe(stored.checked_at);
    const idOf = (r: ReconciliationRecord) =>
      eventIdFor([r.partnerId, 'reconciliation.completed', r.storeId, r.businessDate, r.closeBatchId, r.checkedAt ?? '']);
    expect(idOf(published[0]!)).toBe(
      eventIdFor([partner.partnerId, 'reconciliation.completed', day.storeId, day.businessDate, close.batch_id, stored.checked_at ?? '']),
    );
  });
});

describe('batch.failed', () => {
  it('the failure path publishes batch.failed once per batch: called again, the same event id', async () => {
    const { partner } = await setUpPartner(service, [USD]);
    const secret = await subscribe(partner);
    const failed = {
      partnerId: partner.partnerId,
      batchId: '6d4c1c52-2b55-4f0e-9d1e-3b1f2f0a9c11',
      endpoint: 'trade-records',
      code: 'INTERNAL_ERROR',
      message: 'The batch could not be stored and was not applied.',
      failedAt: new Date('2026-03-02T10:00:00Z'),
    };
    // The second call waits for the first delivery: made while the first is still queued, it is
    // answered by that one delivery when it lands first, so the count would depend on timing.
    await service.services.batchFailures.batchFailed(failed);
    await eventually(
      () => Promise.resolve(eventsOf(partner, secret)),
      (received) => received.length >= 1,
    );
    await service.services.batchFailures.batchFailed(failed);
    const events = await eventually(
      () => Promise.resolve(eventsOf(partner, secret)),
      (received) => received.length >= 2,
    );
    expect(events.map((e) => e.id)).toEqual([events[0]?.id, events[0]?.id]);
    expect(events[0]).toMatchObject({
      type: 'com.example.pos.batch.failed',
      source: '/pos/v1/trade-records',
      subject: failed.batchId,
      time: '2026-03-02T10:00:00.000Z',
      data: {
        batch_id: failed.batchId,
        status: 'FAILED',
        error: { code: 'INTERNAL_ERROR', message: failed.message },
        failed_at: '2026-03-02T10:00:00.000Z',
      },
      signedBy: true,
    });
  });
});
