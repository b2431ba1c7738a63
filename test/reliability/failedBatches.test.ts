/**
 * The second line of defence: when storage refuses part of a validated batch (validation is meant
 * to make that impossible, so the refusal is injected here), the batch ends FAILED: none of its
 * rows is counted, what it replaced is back, the sweep leaves it alone, the partner is told not to
 * retry, and HQ lists it.
 */
import type { PipelineRequest } from '@azure/core-rest-pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventIdFor } from '../../src/events/eventIdFor.js';
import { withInvocationTelemetry } from '../../src/observability/invocationTelemetry.js';
import { logTelemetry } from '../../src/observability/Telemetry.js';
import { WebhookSecret } from '../../src/events/WebhookSecret.js';
import { BatchLedger } from '../../src/storage/BatchLedger.js';
import { PendingBatchIndex } from '../../src/storage/PendingBatchIndex.js';
import { WebhookEventStore } from '../../src/storage/WebhookEventStore.js';
import { WebhookRegistrationRepository } from '../../src/storage/WebhookRegistrationRepository.js';
import { TradeRecordIndex } from '../../src/storage/TradeRecordIndex.js';
import { buildProductBatch } from '../fixtures/masterDataFixtures.js';
import { newBatchId } from '../support/httpScenario.js';
import { errorOf, type TestResponse } from '../support/responseBodies.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { buildDayBatch, businessDateOf, checkDay, ledgerState, preparePartner } from './support/dayScenario.js';
import { FaultPolicy, isLedgerCommit, isTableTransaction } from './support/faultPolicy.js';
import { seededRandom } from './support/random.js';

const policy = new FaultPolicy();
let service: TestService;
let partner: TestPartner;
const random = seededRandom(404);

beforeAll(async () => {
  service = await startTestService({ services: { policy, abandonedAfterMs: 0 } });
  partner = await preparePartner(service, random);
});
afterAll(async () => {
  await service.stop();
});

/** Storage refuses the n-th table transaction (0-based) from now on, once. */
function refuseTransaction(n: number, code = 'EntityTooLarge'): void {
  let seen = 0;
  policy.answerWith((request: PipelineRequest) => isTableTransaction(request) && seen++ === n, 400, code);
}

/** Storage refuses, once, the table transaction that writes the row of `tradeRecordId`. */
function refuseTransactionWriting(tradeRecordId: string): void {
  policy.answerWith(
    (request: PipelineRequest) =>
      isTableTransaction(request) && typeof request.body === 'string' && request.body.includes(`"${tradeRecordId}"`),
    400,
    'EntityTooLarge',
  );
}

async function dayRows(businessDate: string): Promise<{ id: string; version: number; batchId: string }[]> {
  const rows: { id: string; version: number; batchId: string }[] = [];
  for await (const row of new TradeRecordIndex(service.services.storage.tables.tradeRecords).listDay(
    partner.partnerId,
    'NYC-0001',
    businessDate,
  )) {
    if (row.type === 'transaction')
      rows.push({ id: row.summary.trade_record_id, version: row.summary.version, batchId: row.summary.batch_id });
  }
  return rows;
}

function expectBatchFailed(response: TestResponse): void {
  expect(response.status).toBe(500);
  expect(errorOf(response).code).toBe('BATCH_FAILED');
  expect(errorOf(response).message).toMatch(/Do not send this batch_id again/);
  expect(errorOf(response).request_id).toBe(response.headers.get('x-request-id'));
  expect(response.headers.get('retry-after')).toBeNull();
}

describe('a batch storage refuses part-way', () => {
  it('ends FAILED: none of its rows count, the versions it replaced are back, retries and the sweep change nothing, HQ lists it', async () => {
    const businessDate = businessDateOf(8100);
    // The partner listens for batch.failed (registered in storage: delivery is not what this tests).
    const registrations = new WebhookRegistrationRepository(service.services.storage.tables.webhooks);
    await registrations.create(
      partner.partnerId,
      { url: 'https://hooks.example.com/pos', eventTypes: ['batch.failed'] },
      WebhookSecret.generate(),
      new Date(),
    );
    const first = buildDayBatch(random, 'NYC-0001', businessDate, 150, 'fb');
    expect((await service.call(partner, 'POST', 'trade-records', first)).status).toBe(202);

    // The second batch updates 100 of those (version 2) and brings 150 new ones: three transactions.
    const second = buildDayBatch(random, 'NYC-0001', businessDate, 250, 'fb');
    second.batch_seq = 2;
    second.trade_records.forEach((record, i) => {
      if (i < 100) Object.assign(record, { version: 2, last_modified_at: record.last_modified_at.replace(/:\d\d([+-])/, ':59$1') });
      else record.trade_record_id = `T-fb-new-${i}`;
    });
    // The transaction holding the last new rows is refused; the one updating T-fb-0…99 goes through.
    refuseTransactionWriting('T-fb-new-249');
    const failed = await service.call(partner, 'POST', 'trade-records', second);
    expectBatchFailed(failed);
    expect(await ledgerState(service, partner.partnerId, second.batch_id)).toBe('FAILED');
    const entry = await new BatchLedger(service.services.storage.tables.batchLedger).get(partner.partnerId, second.batch_id);
    expect(entry?.state === 'FAILED' && entry.failure).toBe('storage refused the content: 400 EntityTooLarge');
    const errorLines = service.logs.filter((line) => line.startsWith('ERROR') && line.includes(failed.headers.get('x-request-id')!));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toContain('400 EntityTooLarge');
    // The partner is told by a batch.failed event, under an id that is the batch's.
    const event = await new WebhookEventStore(service.services.storage.tables.webhookEvents).get(
      partner.partnerId,
      eventIdFor([partner.partnerId, 'batch.failed', second.batch_id]),
    );
    expect(event?.eventType).toBe('batch.failed');
    expect(JSON.parse(event?.body ?? '{}')).toMatchObject({
      data: { batch_id: second.batch_id, status: 'FAILED', error: { code: 'BATCH_FAILED' } },
    });

    // Exactly the first batch's rows: nothing of the second, and version 1 back where it had written 2.
    const rows = await dayRows(businessDate);
    expect(rows).toHaveLength(150);
    expect(rows.every((row) => row.batchId === first.batch_id && row.version === 1)).toBe(true);
    const batches = await new TradeRecordIndex(service.services.storage.tables.tradeRecords).listBatches(
      partner.partnerId,
      'NYC-0001',
      businessDate,
    );
    expect(batches.find((b) => b.batchId === second.batch_id)?.failed).toBe(true);

    // Sent again: the same answer, nothing applied. The sweep reports it and does not retry.
    expectBatchFailed(await service.call(partner, 'POST', 'trade-records', second));
    expect(await service.services.sweeper.sweep({ partnerId: partner.partnerId, batchId: second.batch_id })).toBe('failed');
    expect(await dayRows(businessDate)).toHaveLength(150);

    // HQ lists it.
    const listed = await service.hq('batch', 'list', '--state', 'failed', '--partner', partner.partnerId);
    expect(listed.code).toBe(0);
    expect(listed.out.slice(1)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${partner.partnerId}\\t${second.batch_id}\\ttrade-records\\tFAILED\\t\\S+\\t\\S+\\tstorage refused the content: 400 EntityTooLarge$`,
        ),
      ),
    ]);
    expect((await service.hq('batch', 'list', '--state', 'broken')).code).toBe(2);
    // Typed in another case, the partner is the stored one; an unknown partner is refused, not listed as empty.
    expect((await service.hq('batch', 'list', '--state', 'failed', '--partner', partner.partnerId.toUpperCase())).out).toEqual(listed.out);
    expect((await service.hq('batch', 'list', '--state', 'failed', '--partner', `${partner.partnerId}-gone`)).code).not.toBe(0);

    // The day reconciles on the first batch alone; the same data under a new batch_id then counts.
    expect((await checkDay(service, partner, random, 'NYC-0001', businessDate, first.trade_records)).reconciliation).toBe('MATCHED');
    const resent = { ...second, batch_id: newBatchId() };
    expect((await service.call(partner, 'POST', 'trade-records', resent)).status).toBe(202);
    const latest = [...second.trade_records, ...first.trade_records.slice(100)];
    const day = await checkDay(service, partner, random, 'NYC-0001', businessDate, latest);
    expect(day.missing + day.unexpected).toBe(0);
  });

  it('a crash between removing its rows and marking it FAILED leaves it PENDING; the sweep meets the refusal again and finishes the job', async () => {
    const businessDate = businessDateOf(8101);
    const batch = buildDayBatch(random, 'NYC-0001', businessDate, 220, 'fc');
    refuseTransaction(2);
    policy.armCrash((request) => isLedgerCommit(request));
    const cut = await service.call(partner, 'POST', 'trade-records', batch);
    expect(cut.status).toBe(500);
    expect(await ledgerState(service, partner.partnerId, batch.batch_id)).toBe('PENDING');
    expect(await dayRows(businessDate)).toEqual([]);

    refuseTransaction(2);
    expect(await service.services.sweeper.sweep({ partnerId: partner.partnerId, batchId: batch.batch_id })).toBe('failed');
    expect(await ledgerState(service, partner.partnerId, batch.batch_id)).toBe('FAILED');
    expect(await dayRows(businessDate)).toEqual([]);
    policy.disarm();
  });

  it('reconciliation skips the rows of a batch marked failed even where some are still there', async () => {
    const businessDate = businessDateOf(8102);
    const kept = buildDayBatch(random, 'NYC-0001', businessDate, 3, 'fk');
    const dropped = buildDayBatch(random, 'NYC-0001', businessDate, 4, 'fd');
    dropped.batch_seq = 2;
    expect((await service.call(partner, 'POST', 'trade-records', kept)).status).toBe(202);
    expect((await service.call(partner, 'POST', 'trade-records', dropped)).status).toBe(202);
    // What the first step of a failure leaves if the process dies right after it.
    await new TradeRecordIndex(service.services.storage.tables.tradeRecords).markBatchFailed(partner.partnerId, 'NYC-0001', businessDate, {
      batchId: dropped.batch_id,
      batchSeq: 2,
      receivedAt: new Date().toISOString(),
      recordCount: 4,
    });
    expect(await dayRows(businessDate)).toHaveLength(7);
    const day = await checkDay(service, partner, random, 'NYC-0001', businessDate, kept.trade_records);
    expect(day.reconciliation).toBe('MATCHED');
  });

  it("keeps a failed batch's pending row while its failure is untold, and the sweep tells it before removing the row", async () => {
    const listener = await preparePartner(service, random);
    await new WebhookRegistrationRepository(service.services.storage.tables.webhooks).create(
      listener.partnerId,
      { url: 'https://hooks.example.com/pos', eventTypes: ['batch.failed'] },
      WebhookSecret.generate(),
      new Date(),
    );
    const events = new WebhookEventStore(service.services.storage.tables.webhookEvents);
    const eventOf = (batchId: string) => events.get(listener.partnerId, eventIdFor([listener.partnerId, 'batch.failed', batchId]));
    const pendingRowOf = async (batchId: string) => {
      for await (const row of new PendingBatchIndex(service.services.storage.tables.pendingBatches).listOlderThan(new Date('2100-01-01'))) {
        if (row.batchId === batchId) return true;
      }
      return false;
    };
    const businessDate = businessDateOf(8300);

    // Told at once: the row goes with it.
    const told = buildDayBatch(random, 'NYC-0001', businessDate, 20, 'ft');
    refuseTransactionWriting(told.trade_records.at(-1)?.trade_record_id ?? '');
    expectBatchFailed(await service.call(listener, 'POST', 'trade-records', told));
    expect(await eventOf(told.batch_id)).toMatchObject({ eventType: 'batch.failed' });
    expect(await pendingRowOf(told.batch_id)).toBe(false);
    // HQ's figure, in the log of the push that found the failure (what the alert rule reads).
    const figure = (batchId: string) => `metric batch_failed 1 partner=${listener.partnerId} batch_id=${batchId} code=BATCH_FAILED`;
    expect(service.logs.filter((line) => line.includes(figure(told.batch_id)))).toHaveLength(1);

    // The event could not be stored: the partner still gets BATCH_FAILED, and the row stays.
    const untold = buildDayBatch(random, 'NYC-0001', businessDate, 20, 'fu');
    untold.batch_seq = 2;
    refuseTransactionWriting(untold.trade_records.at(-1)?.trade_record_id ?? '');
    policy.answerWith(
      (request: PipelineRequest) => request.method === 'POST' && /\/webhookevents(\?|$)/.test(request.url),
      400,
      'InvalidInput',
    );
    expectBatchFailed(await service.call(listener, 'POST', 'trade-records', untold));
    expect(await eventOf(untold.batch_id)).toBeUndefined();
    expect(await pendingRowOf(untold.batch_id)).toBe(true);

    // The sweep tells it, under the batch's event id and with HQ's figure in its own log, then
    // removes the row.
    const sweepLog: string[] = [];
    const sweep = () => service.services.sweeper.sweep({ partnerId: listener.partnerId, batchId: untold.batch_id });
    expect(
      await withInvocationTelemetry(
        logTelemetry((line) => sweepLog.push(line)),
        sweep,
      ),
    ).toBe('failed');
    expect(sweepLog).toEqual([figure(untold.batch_id)]);
    expect(JSON.parse((await eventOf(untold.batch_id))?.body ?? '{}')).toMatchObject({
      data: { batch_id: untold.batch_id, status: 'FAILED', error: { code: 'BATCH_FAILED' } },
    });
    expect(await pendingRowOf(untold.batch_id)).toBe(false);
  });

  it('a products batch storage refuses ends FAILED as well, and is listed', async () => {
    const products = { ...buildProductBatch(), batch_id: newBatchId() };
    refuseTransaction(0, 'RequestBodyTooLarge');
    expectBatchFailed(await service.call(partner, 'PUT', 'products', products));
    expect(await ledgerState(service, partner.partnerId, products.batch_id)).toBe('FAILED');
    const listed = await service.hq('batch', 'list', '--state', 'failed', '--partner', partner.partnerId);
    expect(listed.out.some((line) => line.includes(products.batch_id) && line.includes('\tproducts\t'))).toBe(true);
  });
});
