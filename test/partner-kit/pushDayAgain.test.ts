/**
 * A day sent again with the same call. pushDay derives every batch_id from the batch's canonical
 * bytes, so a call that stopped partway (the network gave up, storage failed a batch) and the same
 * call again, from another client or process, are the same batches: the service applies each
 * once, holds one batch_id per batch_seq and counts the close once. Real HTTP and storage; the
 * store-day is read as HQ sees it (GET /hq/v1/store-days/…).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DailyCloseTotals } from '../../packages/partner-kit/src/PosClient.js';
import type { TradeRecord } from '../../packages/partner-kit/src/contractTypes.js';
import { PosClient, type PosClientOptions } from '../../packages/partner-kit/src/PosClient.js';
import { PosRequestError } from '../../packages/partner-kit/src/PosRequestError.js';
import { PushDayError } from '../../packages/partner-kit/src/PushDayError.js';
import { buildMappingBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { buildUsdTaxExcludedRecord, fixtureBusinessDate, usdStoreId } from '../fixtures/tradeRecordFixtures.js';
import { dayOf } from '../hq/support/hqBodies.js';
import { anyString } from '../support/matchers.js';
import { FaultPolicy, isTableTransaction } from '../reliability/support/faultPolicy.js';
import { startTestService, type TestOperator, type TestPartner, type TestService } from '../support/startTestService.js';
import { closeOfRecords } from './support/closeOfRecords.js';
import { recordingFetch, type RecordedCall } from './support/recordingFetch.js';

/** Lets a test make storage refuse a validated batch, as it would a row it cannot hold. */
const policy = new FaultPolicy();
let service: TestService;
let viewer: TestOperator;
beforeAll(async () => {
  service = await startTestService({ services: { policy } });
  viewer = await service.createOperator('viewer');
});
afterAll(async () => {
  await service.stop();
});

/** The RFC 9562 form of a version 8 UUID (variant 10). */
const uuidV8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A new partner with the USD store and the mapping, and the close of `records` as it counts them. */
async function partnerSending(records: readonly TradeRecord[]): Promise<{ partner: TestPartner; totals: DailyCloseTotals }> {
  const partner = await service.createPartner({ stores: [usdStoreId] });
  const setup = client(partner);
  await setup.uploadStores([buildUsdStore(usdStoreId)]);
  const entries = buildMappingBatch().mappings;
  await setup.uploadMapping(entries);
  return { partner, totals: closeOfRecords(records, Object.fromEntries(entries.map((entry) => [entry.source_code, entry.standard_code]))) };
}

/** A client of its own, as a POS process that starts again has: batches of 2 records. */
function client(partner: TestPartner, options: Partial<PosClientOptions> = {}): PosClient {
  return new PosClient({ baseUrl: service.baseUrl, apiKey: partner.key, maxRecordsPerBatch: 2, baseDelayMs: 1, maxDelayMs: 5, ...options });
}

async function stopped(push: Promise<unknown>): Promise<PushDayError> {
  const error: unknown = await push.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PushDayError);
  return error as PushDayError;
}

const seqOf = (call: RecordedCall) => (JSON.parse(call.body ?? '{}') as { batch_seq?: number }).batch_seq;
const idOf = (call: RecordedCall) => (JSON.parse(call.body ?? '{}') as { batch_id?: string }).batch_id;

/** The store-day as HQ sees it: the close in effect and every batch received, by batch_seq. */
async function hqDay(partner: TestPartner) {
  return dayOf(await service.callHost(viewer, 'GET', `hq/v1/store-days/${partner.partnerId}/${usdStoreId}/${fixtureBusinessDate}`));
}

async function reconciled(partner: TestPartner) {
  const result = await client(partner).waitForReconciliation(usdStoreId, fixtureBusinessDate, { intervalMs: 250, timeoutMs: 60_000 });
  expect(result.status, JSON.stringify(result.differences)).toBe('MATCHED');
  // Nothing flags a batch_seq given to two batch_ids, nor one missing.
  expect(result.diagnosis?.missing_batch_seqs).toEqual([]);
  expect(result.diagnosis?.hints).toEqual([]);
}

describe('pushDay sent again after it stopped partway', () => {
  it('applies each batch once: those applied before answer ALREADY_RECEIVED, one batch_id per batch_seq, the close once', async () => {
    const records = Array.from({ length: 5 }, (_, seq) => buildUsdTaxExcludedRecord({ seq }));
    const { partner, totals } = await partnerSending(records);
    // The network gives up on the second batch, every attempt: the first was applied, the rest never left.
    const { calls, send } = recordingFetch((call) => {
      const sent = calls[call - 1];
      return sent && seqOf(sent) === 2 ? Promise.reject(new TypeError('fetch failed: connection reset')) : undefined;
    });
    const error = await stopped(client(partner, { fetch: send, maxAttempts: 3 }).pushDay(records, totals));
    expect([error.acknowledged.length, error.batchCount, error.acknowledgedRecords]).toEqual([1, 3, 2]);
    expect(error.acknowledged.map((ack) => ack.status)).toEqual(['ACCEPTED']);
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(error.message).toBe(
      'pushDay stopped after 1 of 3 batch(es) were acknowledged; the daily close was not sent: fetch failed: connection reset',
    );
    expect(calls.map(seqOf)).toEqual([1, 2, 2, 2]);

    // The POS runs the same call again, in a new process: a new client, the same records and close.
    const again = await client(partner).pushDay(records, totals);
    expect(again.batches.map((ack) => ack.status)).toEqual(['ALREADY_RECEIVED', 'ACCEPTED', 'ACCEPTED']);
    expect(again.batches.slice(0, 2).map((ack) => ack.batch_id)).toEqual([idOf(calls[0]!), idOf(calls[1]!)]);
    expect(again.close.status).toBe('ACCEPTED');
    for (const ack of [...again.batches, again.close]) expect(ack.batch_id).toMatch(uuidV8);
    await reconciled(partner);
    const day = await hqDay(partner);
    expect(day.batches.map((batch) => [batch.batch_seq, batch.batch_id, batch.failed])).toEqual(
      again.batches.map((ack, index) => [index + 1, ack.batch_id, false]),
    );
    expect(day.close).toMatchObject({ batch_id: again.close.batch_id, batch_count: 3 });

    // Once more, whole: nothing is applied again, and the close in effect is still the one received.
    const third = await client(partner).pushDay(records, totals);
    expect([...third.batches, third.close].map((ack) => ack.status)).toEqual(Array(4).fill('ALREADY_RECEIVED'));
    expect(await hqDay(partner)).toMatchObject({ batches: day.batches, close: day.close });
  });

  it('sends the same content as the same bytes under the same ids, whatever key order; other content gets other ids', async () => {
    const records = Array.from({ length: 3 }, (_, seq) => buildUsdTaxExcludedRecord({ seq }));
    const { partner, totals } = await partnerSending(records);
    const first = recordingFetch();
    const day = await client(partner, { fetch: first.send }).pushDay(records, totals);

    // Another process builds the same records and totals with their keys in another order.
    const reversed = <T extends object>(value: T) => Object.fromEntries(Object.entries(value).reverse()) as T;
    const second = recordingFetch();
    const again = await client(partner, { fetch: second.send }).pushDay(records.map(reversed), reversed(totals));
    expect(second.calls.map((call) => call.body)).toEqual(first.calls.map((call) => call.body));
    // The same bytes: ALREADY_RECEIVED with the first receipt, and no BATCH_ID_REUSED warning.
    expect([...again.batches, again.close]).toEqual([...day.batches, day.close].map((ack) => ({ ...ack, status: 'ALREADY_RECEIVED' })));

    // A corrected transaction, sent as the day's next batch, is new content: new ids, applied.
    const corrected = { ...records[0]!, version: records[0]!.version + 1 };
    const correction = await client(partner).pushDay([corrected], totals, { batchesSentBefore: 2 });
    const earlier = new Set([...day.batches, day.close].map((ack) => ack.batch_id));
    for (const ack of [...correction.batches, correction.close]) {
      expect(ack.status).toBe('ACCEPTED');
      expect(earlier.has(ack.batch_id)).toBe(false);
      expect(ack.batch_id).toMatch(uuidV8);
    }
    await reconciled(partner);
  });
});

describe('pushDay sent again after a batch ended FAILED', () => {
  it('meets the same BATCH_FAILED again; the rest of the day goes under new ids when HQ asks for it', async () => {
    const records = [0, 1, 2, 3, 4].map((seq) => buildUsdTaxExcludedRecord(seq === 2 ? { seq, tradeRecordId: 'T-FAILS-2' } : { seq }));
    const { partner, totals } = await partnerSending(records);
    // Storage refuses the rows of the batch holding T-FAILS-2, every time: the batch ends FAILED.
    policy.answerWith(
      (request) => isTableTransaction(request) && typeof request.body === 'string' && request.body.includes('"T-FAILS-2"'),
      400,
      'EntityTooLarge',
      100,
    );
    const first = await stopped(client(partner).pushDay(records, totals));
    expect(first.acknowledged.map((ack) => ack.status)).toEqual(['ACCEPTED']);
    const refusal = first.cause as PosRequestError;
    expect(refusal).toBeInstanceOf(PosRequestError);
    expect([refusal.status, (refusal.body as { error: { code: string } }).error.code]).toEqual([500, 'BATCH_FAILED']);

    // The same call again: resending cannot fix a FAILED batch; it answers the same under the same id.
    const rerun = await stopped(client(partner).pushDay(records, totals));
    expect(rerun.acknowledged).toEqual(first.acknowledged.map((ack) => ({ ...ack, status: 'ALREADY_RECEIVED' })));
    expect(rerun.cause).toMatchObject({ status: 500, batchId: refusal.batchId });
    expect((rerun.cause as PosRequestError).body).toMatchObject({ error: { code: 'BATCH_FAILED', request_id: anyString() } });
    policy.disarm();

    // HQ fixed the cause and asks for the rest of the day: what was not acknowledged, numbered
    // after what was, under new ids (the acknowledged batch is not sent again).
    const rest = await client(partner).pushDay(records.slice(rerun.acknowledgedRecords), totals, {
      batchesSentBefore: rerun.acknowledged.length,
      batchIdSeed: 'after-hq-fix-1',
    });
    expect([...rest.batches, rest.close].map((ack) => ack.status)).toEqual(['ACCEPTED', 'ACCEPTED', 'ACCEPTED']);
    await reconciled(partner);
    // The FAILED batch stays listed, as failed; batch_seq 2 counts once, under its new id.
    const day = await hqDay(partner);
    expect(day.batches.map((batch) => [batch.batch_seq, batch.batch_id, batch.failed])).toEqual([
      [1, first.acknowledged[0]?.batch_id, false],
      [2, refusal.batchId, true],
      [2, rest.batches[0]?.batch_id, false],
      [3, rest.batches[1]?.batch_id, false],
    ]);
    expect(rest.batches[0]?.batch_id).not.toBe(refusal.batchId);
    expect(day.close).toMatchObject({ batch_id: rest.close.batch_id, batch_count: 3 });
  });
});
