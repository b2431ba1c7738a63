/**
 * A store-day takes at most MAX_TRANSACTIONS_PER_STORE_DAY transactions and MAX_BATCHES_PER_STORE_DAY
 * batches: a push past either is refused 400 STORE_DAY_TOO_LARGE before anything is written, through
 * real HTTP and storage. Small limits here; the same code runs with the deployed ones. The day's
 * batches are listed once per push, starting from the body's first bytes.
 */
import http from 'node:http';
import type { PipelinePolicy } from '@azure/core-rest-pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchLedger } from '../../src/storage/BatchLedger.js';
import { tableKey } from '../../src/storage/tableKey.js';
import { TradeRecordIndex } from '../../src/storage/TradeRecordIndex.js';
import { expectInvalid, partnerWithStores, tradeBatch, usdStore } from '../support/httpScenario.js';
import { ackOf, errorOf, type TestResponse } from '../support/responseBodies.js';
import { eventually, startTestService, type TestPartner, type TestService } from '../support/startTestService.js';

const maxTransactions = 7;
const maxBatches = 3;
const now = new Date('2026-03-02T12:00:00Z');

/** Every storage request the service sends, by the id its tries share (a retry is not a second request). */
const storageRequests = new Map<string, { method: string; url: string }>();
const recordRequests: PipelinePolicy = {
  name: 'recordRequests',
  sendRequest: (request, next) => {
    storageRequests.set(request.requestId, { method: request.method, url: request.url });
    return next(request);
  },
};

let service: TestService;
beforeAll(async () => {
  service = await startTestService({
    settings: { MAX_TRANSACTIONS_PER_STORE_DAY: String(maxTransactions), MAX_BATCHES_PER_STORE_DAY: String(maxBatches) },
    services: { clock: () => now, policy: recordRequests },
  });
});
afterAll(async () => {
  await service.stop();
});

let sent = 0;
/** A batch of `recordCount` transactions of the day, each with an id no other batch of this file uses. */
function dayBatch(businessDate: string, recordCount: number) {
  const tag = ++sent;
  return tradeBatch({ businessDate, recordCount, tradeRecordIdOf: (seq) => `T-${tag}-${seq}` });
}

function push(partner: TestPartner, body: unknown): Promise<TestResponse> {
  return service.call(partner, 'POST', 'trade-records', body);
}

function expectDayFull(response: TestResponse): string {
  expect(response.status).toBe(400);
  const error = errorOf(response);
  expect(error.code).toBe('STORE_DAY_TOO_LARGE');
  return error.message;
}

/** The batches the store-day's index holds, as every reconciliation of it lists them. */
async function dayBatchIds(partner: TestPartner, businessDate: string): Promise<string[]> {
  const index = new TradeRecordIndex(service.services.storage.tables.tradeRecords);
  return (await index.listBatches(partner.partnerId, usdStore, businessDate)).map((batch) => batch.batchId).sort();
}

async function ledgerHas(partner: TestPartner, batchId: string): Promise<boolean> {
  return (await new BatchLedger(service.services.storage.tables.batchLedger).get(partner.partnerId, batchId)) !== undefined;
}

describe('transactions per store-day', () => {
  it('accepts a day up to the limit, refuses the batch that would pass it and writes nothing of it', async () => {
    const partner = await partnerWithStores(service);
    const date = '2026-03-01';
    const first = dayBatch(date, 3);
    const second = dayBatch(date, 3);
    expect((await push(partner, first)).status).toBe(202);
    expect((await push(partner, second)).status).toBe(202);

    const over = dayBatch(date, 2);
    const message = expectDayFull(await push(partner, over));
    expect(message).toContain('already hold 6 transactions');
    expect(message).toContain(`the ${maxTransactions} accepted`);
    expect(await ledgerHas(partner, over.batch_id)).toBe(false);
    expect(await dayBatchIds(partner, date)).toEqual([first.batch_id, second.batch_id].sort());

    // Sent again, the refused batch is refused again: nothing of the first try was kept.
    expectDayFull(await push(partner, over));
    // What still fits is taken, up to the limit itself.
    const last = dayBatch(date, 1);
    expect((await push(partner, last)).status).toBe(202);
    expectDayFull(await push(partner, dayBatch(date, 1)));
  });

  it('answers a repeat of an accepted batch ALREADY_RECEIVED once the day is full', async () => {
    const partner = await partnerWithStores(service);
    const date = '2026-02-28';
    const full = dayBatch(date, maxTransactions);
    expect((await push(partner, full)).status).toBe(202);
    expectDayFull(await push(partner, dayBatch(date, 1)));

    const repeat = await push(partner, full);
    expect(repeat.status).toBe(200);
    expect(ackOf(repeat).status).toBe('ALREADY_RECEIVED');
  });

  it("counts each store-day apart, and one partner's day never fills another's", async () => {
    const partner = await partnerWithStores(service);
    const other = await partnerWithStores(service);
    const date = '2026-02-27';
    expect((await push(partner, dayBatch(date, maxTransactions))).status).toBe(202);
    expectDayFull(await push(partner, dayBatch(date, 1)));

    expect((await push(partner, dayBatch('2026-02-26', maxTransactions))).status).toBe(202);
    expect((await push(other, dayBatch(date, maxTransactions))).status).toBe(202);
  });

  it('tells a body that breaks the rules about that first', async () => {
    const partner = await partnerWithStores(service);
    const date = '2026-02-25';
    expect((await push(partner, dayBatch(date, maxTransactions))).status).toBe(202);
    const broken = dayBatch(date, 1);
    broken.trade_records[0]!.total_amount = '1.001';
    expectInvalid(await push(partner, broken), '/trade_records/0/total_amount');
  });
});

describe('batches per store-day', () => {
  it('refuses a batch past the limit however few transactions it holds', async () => {
    const partner = await partnerWithStores(service);
    const date = '2026-02-24';
    const accepted = [];
    for (let i = 0; i < maxBatches; i++) {
      const batch = dayBatch(date, 1);
      expect((await push(partner, batch)).status).toBe(202);
      accepted.push(batch.batch_id);
    }
    const over = dayBatch(date, 1);
    expect(expectDayFull(await push(partner, over))).toContain(`already hold ${maxBatches} batches`);
    expect(await ledgerHas(partner, over.batch_id)).toBe(false);
    expect(await dayBatchIds(partner, date)).toEqual(accepted.sort());
  });
});

describe("the store-day's listing", () => {
  /** Reads of the index that name the store-day's partition: the listing of its batches is the only one a new batch makes. */
  function dayReads(partner: TestPartner, businessDate: string): number {
    const tableName = service.services.storage.tables.tradeRecords.tableName;
    const partition = `PartitionKey eq '${tableKey(partner.partnerId, usdStore, businessDate)}'`;
    return [...storageRequests.values()].filter(
      (request) =>
        request.method === 'GET' &&
        new URL(request.url).pathname.endsWith(`/${tableName}()`) &&
        decodeURIComponent(request.url).includes(partition),
    ).length;
  }

  it('starts while a chunked body still arrives, from its first bytes, and is made once', async () => {
    // Chunked: a body with Content-Length reaches the service only once the host received it whole.
    const partner = await partnerWithStores(service);
    const date = '2026-02-23';
    const body = Buffer.from(JSON.stringify(dayBatch(date, 5)));
    const [head, rest] = [body.subarray(0, 2048), body.subarray(2048)];
    expect(rest.length).toBeGreaterThan(0);

    const request = http.request(`${service.baseUrl}/trade-records`, {
      method: 'POST',
      headers: { 'x-functions-key': partner.key, 'content-type': 'application/json' },
      agent: false,
    });
    const answered = new Promise<number>((resolve, reject) => {
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
    });
    request.write(head);
    // The rest of the body is held back until the day is being listed: a listing that waited for the
    // whole body would not come within the wait, and the test fails there.
    expect(
      await eventually(
        () => Promise.resolve(dayReads(partner, date)),
        (reads) => reads > 0,
        10_000,
      ),
    ).toBe(1);
    request.end(rest);
    expect(await answered).toBe(202);
    expect(dayReads(partner, date)).toBe(1);
  });
});
