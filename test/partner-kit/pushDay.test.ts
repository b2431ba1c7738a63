/**
 * The reference client sends a day of 3,000 transactions to the local service through a network
 * that answers 429, 503 and a gateway's 502 page in the service's place, refuses connections and drops answers after
 * the service processed the request. The day must reconcile MATCHED, every batch must be
 * ACCEPTED exactly once, and the daily close must leave only after every batch was acknowledged.
 */
import { randomUUID } from 'node:crypto';
import type { PipelineRequest } from '@azure/core-rest-pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceMaxBodyBytes } from '../../packages/partner-kit/src/bodyLimit.js';
import type { TradeRecord } from '../../packages/partner-kit/src/contractTypes.js';
import { PosClient, type DailyCloseTotals } from '../../packages/partner-kit/src/PosClient.js';
import { PosRequestError } from '../../packages/partner-kit/src/PosRequestError.js';
import { PushDayError } from '../../packages/partner-kit/src/PushDayError.js';
import { controlTotals } from '../e2e/support/storeDayKit.js';
import { buildMappingBatch, buildProductBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { buildUsdTaxExcludedRecord, fixtureBusinessDate, usdStoreId, USD } from '../fixtures/tradeRecordFixtures.js';
import { FaultPolicy, isTableTransaction } from '../reliability/support/faultPolicy.js';
import { seededRandom } from '../reliability/support/random.js';
import { startTestService, type TestService } from '../support/startTestService.js';
import { closeOfRecords } from './support/closeOfRecords.js';
import { longNamedMappings } from './support/largeMappings.js';
import { recordingFetch } from './support/recordingFetch.js';

/** The service's error body, as far as the tests read it. */
interface Refusal {
  readonly error: { code: string; request_id: string; details: { path: string; message: string }[] };
}

/** Lets a test make storage refuse a validated batch, as it would a row it cannot hold. */
const policy = new FaultPolicy();
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ services: { policy } });
});
afterAll(async () => {
  await service.stop();
});

interface Traffic {
  /** 202 answers the service gave (delivered or dropped), per batch_id. */
  readonly accepted: Map<string, number>;
  /** Request paths in the order the client got a successful answer. */
  readonly succeeded: string[];
  readonly injected: Record<'429' | '502' | '503' | 'refused' | 'dropped', number>;
}

/** A fetch that misbehaves as a network and an overloaded front end do, nearly one call in two. */
function faultyNetwork(random: () => number, traffic: Traffic): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = new URL(url).pathname;
    const roll = random();
    if (roll < 0.1) {
      traffic.injected['429']++;
      return new Response(JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'slow down' } }), {
        status: 429,
        headers: { 'Retry-After': '0' },
      });
    }
    if (roll < 0.15) {
      // A gateway in front of the service answers with a page of its own, not JSON.
      traffic.injected['502']++;
      return new Response('<html><body>502 Bad Gateway</body></html>', { status: 502, headers: { 'Content-Type': 'text/html' } });
    }
    if (roll < 0.2) {
      traffic.injected['503']++;
      return new Response(JSON.stringify({ error: { code: 'SERVICE_UNAVAILABLE', message: 'busy' } }), {
        status: 503,
        headers: { 'Retry-After': '0' },
      });
    }
    if (roll < 0.3) {
      traffic.injected.refused++;
      throw new TypeError('fetch failed: connection refused');
    }
    const response = await fetch(input, init);
    const text = await response.text();
    if (response.status === 202) {
      const batchId = (JSON.parse(text) as { batch_id: string }).batch_id;
      traffic.accepted.set(batchId, (traffic.accepted.get(batchId) ?? 0) + 1);
    }
    if (roll < 0.45) {
      // The service processed the request; its answer never reaches the client.
      traffic.injected.dropped++;
      throw new TypeError('fetch failed: socket hang up');
    }
    if (response.ok) traffic.succeeded.push(path);
    return new Response(text, { status: response.status, headers: response.headers });
  };
}

describe('PosClient.pushDay', () => {
  it("delivers a 3,000-transaction day through 429s, 503s, a gateway's 502 pages and dropped connections: MATCHED, no batch applied twice", async () => {
    const partner = await service.createPartner({ stores: [usdStoreId] });
    const traffic: Traffic = { accepted: new Map(), succeeded: [], injected: { '429': 0, '502': 0, '503': 0, refused: 0, dropped: 0 } };
    const client = new PosClient({
      baseUrl: service.baseUrl,
      apiKey: partner.key,
      fetch: faultyNetwork(seededRandom(20261123), traffic),
      baseDelayMs: 2,
      maxDelayMs: 20,
      maxAttempts: 20,
    });
    await client.uploadStores([buildUsdStore(usdStoreId)]);
    const mapping = buildMappingBatch().mappings;
    await client.uploadMapping(mapping);

    const records = Array.from({ length: 3000 }, (_, seq) => buildUsdTaxExcludedRecord({ seq }));
    const totals = controlTotals(USD, records, { mapping: Object.fromEntries(mapping.map((m) => [m.source_code, m.standard_code])) });
    const day = await client.pushDay(records, {
      store_id: usdStoreId,
      business_date: fixtureBusinessDate,
      currency: 'USD',
      closed_at: '2026-03-02T03:55:00-05:00',
      ...totals,
    });

    expect(day.batches.length).toBeGreaterThanOrEqual(6);
    expect(day.batches.reduce((sum, ack) => sum + ack.record_count, 0)).toBe(3000);
    for (const ack of [...day.batches, day.close]) expect(traffic.accepted.get(ack.batch_id), ack.batch_id).toBe(1);
    expect(traffic.injected['429'] + traffic.injected['502'] + traffic.injected['503']).toBeGreaterThan(0);
    expect(traffic.injected.dropped).toBeGreaterThan(0);
    const closeAt = traffic.succeeded.indexOf('/pos/v1/daily-close');
    expect(traffic.succeeded.slice(0, closeAt).filter((path) => path === '/pos/v1/trade-records')).toHaveLength(day.batches.length);

    const result = await client.waitForReconciliation(usdStoreId, fixtureBusinessDate, { intervalMs: 250, timeoutMs: 60_000 });
    expect(result.status, JSON.stringify(result.differences)).toBe('MATCHED');
    expect(result.actual?.trade_record_count).toBe(3000);
  });
});

describe('PosClient reading what a mapping needs', () => {
  it("reads HQ's standard list and the mapping in effect, before and after an upload", async () => {
    const partner = await service.createPartner({ stores: [usdStoreId] });
    const client = new PosClient({ baseUrl: service.baseUrl, apiKey: partner.key, baseDelayMs: 1, maxDelayMs: 5 });
    const standard = await client.standardTransactionTypes();
    expect(standard.data.map((type) => type.code)).toContain('SALE');
    expect(standard.data.find((type) => type.code === 'SALE')).toMatchObject({ is_revenue: true, amount_sign: 1 });
    expect(await client.mapping()).toEqual({ partner_id: partner.partnerId, batch_id: null, updated_at: null, mappings: [] });
    const entries = buildMappingBatch().mappings;
    const upload = await client.uploadMapping(entries);
    expect(await client.mapping()).toMatchObject({ partner_id: partner.partnerId, batch_id: upload.batch_id, mappings: entries });
  });
});

describe('PosClient on a 500', () => {
  it('sends a batch that ends FAILED once, never again, and surfaces 500 BATCH_FAILED without sending the close', async () => {
    const partner = await service.createPartner({ stores: [usdStoreId] });
    const sent: string[] = [];
    const counting: typeof fetch = (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      sent.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
      return fetch(input, init);
    };
    const client = new PosClient({ baseUrl: service.baseUrl, apiKey: partner.key, fetch: counting, baseDelayMs: 1, maxDelayMs: 5 });
    await client.uploadStores([buildUsdStore(usdStoreId)]);
    const records = [buildUsdTaxExcludedRecord({ tradeRecordId: 'T-REFUSED-1' }), buildUsdTaxExcludedRecord({ seq: 1 })];
    // Storage refuses the table transaction that writes the batch's rows, every time it is sent.
    policy.answerWith(
      (request: PipelineRequest) =>
        isTableTransaction(request) && typeof request.body === 'string' && request.body.includes('"T-REFUSED-1"'),
      400,
      'EntityTooLarge',
      10,
    );
    sent.length = 0;

    const error: unknown = await client
      .pushDay(records, {
        store_id: usdStoreId,
        business_date: fixtureBusinessDate,
        currency: 'USD',
        closed_at: '2026-03-02T03:55:00-05:00',
        ...controlTotals(USD, records, { mapping: {} }),
      })
      .catch((caught: unknown) => caught);

    // Stopped at its first batch: nothing acknowledged, and the service's refusal as the cause.
    expect(error).toBeInstanceOf(PushDayError);
    expect((error as PushDayError).acknowledged).toEqual([]);
    expect((error as PushDayError).message).toContain('after 0 of 1 batch(es) were acknowledged');
    const refusal = (error as PushDayError).cause as PosRequestError;
    expect(refusal).toBeInstanceOf(PosRequestError);
    expect(refusal.status).toBe(500);
    expect((refusal.body as { error: { code: string } }).error.code).toBe('BATCH_FAILED');
    expect(refusal.message).toContain('500 BATCH_FAILED');
    expect(refusal.batchId).toEqual(expect.any(String));
    expect(sent).toEqual(['POST /pos/v1/trade-records']);
  });
});

describe("PosClient on answers that are not the service's", () => {
  it("sends a batch again after a gateway's 502 page, and the batch is ACCEPTED once", async () => {
    const partner = await service.createPartner({ stores: [usdStoreId] });
    let gatewayPages = 2;
    const statuses: number[] = [];
    const behindGateway: typeof fetch = async (input, init) => {
      if (gatewayPages > 0) {
        gatewayPages--;
        statuses.push(502);
        return new Response('<html><body>502 Bad Gateway</body></html>', { status: 502, headers: { 'Content-Type': 'text/html' } });
      }
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    };
    const client = new PosClient({ baseUrl: service.baseUrl, apiKey: partner.key, fetch: behindGateway, baseDelayMs: 1, maxDelayMs: 5 });
    const ack = await client.uploadStores([buildUsdStore(usdStoreId)]);
    expect(ack.status).toBe('ACCEPTED');
    expect(statuses).toEqual([502, 502, 202]);
  });

  it('says to check the key when the service answers 401 with no body', async () => {
    const client = new PosClient({ baseUrl: service.baseUrl, apiKey: 'not-a-key', baseDelayMs: 1, maxDelayMs: 5 });
    const error: unknown = await client.uploadStores([buildUsdStore(usdStoreId)]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PosRequestError);
    expect((error as PosRequestError).status).toBe(401);
    expect((error as PosRequestError).message).toContain('check the API key sent as x-functions-key');
  });

  it('says to check the baseUrl when a path no function serves is answered 404 with no body', async () => {
    const partner = await service.createPartner({ stores: [usdStoreId] });
    expect(service.baseUrl).toMatch(/\/pos\/v1$/);
    const client = new PosClient({
      baseUrl: service.baseUrl.replace(/\/pos\/v1$/, ''),
      apiKey: partner.key,
      baseDelayMs: 1,
      maxDelayMs: 5,
    });
    const error: unknown = await client.uploadStores([buildUsdStore(usdStoreId)]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PosRequestError);
    expect((error as PosRequestError).status).toBe(404);
    expect((error as PosRequestError).message).toContain('check that baseUrl ends in /pos/v1');
  });
});

describe('PosClient corrections', () => {
  it('sends what a MISMATCHED day missed as the next batches of the day, and the close counts them all', async () => {
    const partner = await service.createPartner({ stores: [usdStoreId] });
    const client = new PosClient({ baseUrl: service.baseUrl, apiKey: partner.key, maxRecordsPerBatch: 2, baseDelayMs: 1, maxDelayMs: 5 });
    await client.uploadStores([buildUsdStore(usdStoreId)]);
    const entries = buildMappingBatch().mappings;
    await client.uploadMapping(entries);
    const mapping = Object.fromEntries(entries.map((entry) => [entry.source_code, entry.standard_code]));
    const records = Array.from({ length: 5 }, (_, seq) => buildUsdTaxExcludedRecord({ seq }));
    const totals = closeOfRecords(records, mapping);
    const wait = () => client.waitForReconciliation(usdStoreId, fixtureBusinessDate, { intervalMs: 250, timeoutMs: 60_000 });

    // The POS left the last transaction out: two batches, and a close whose totals hold all five.
    const first = await client.pushDay(records.slice(0, 4), totals);
    expect(first.batches).toHaveLength(2);
    expect((await wait()).status).toBe('MISMATCHED');

    // The close is ACCEPTED once the day is RECEIVED again: the next result is the new close's.
    const correction = await client.pushDay(records.slice(4), totals, { batchesSentBefore: 2 });
    expect(correction.batches).toHaveLength(1);
    const result = await wait();
    expect(result.status, JSON.stringify(result.differences)).toBe('MATCHED');
    // Numbered 3 and counted as the day's third batch: no batch is missing or unexpected.
    expect(result.diagnosis?.missing_batch_seqs).toEqual([]);
    expect(result.diagnosis?.hints).toEqual([]);

    // The close alone, sent again with a new batch_id, counts the same three batches.
    const again = await client.sendDailyClose(totals, 3);
    expect(again.batch_id).not.toBe(correction.close.batch_id);
    expect(again.status).toBe('ACCEPTED');
    const resent = await wait();
    expect(resent.status).toBe('MATCHED');
    expect(resent.diagnosis?.hints).toEqual([]);
  });

  it("fills in the close's batch_id and batch_count itself, whatever the totals it is given hold", async () => {
    const partner = await service.createPartner({ stores: [usdStoreId] });
    const { calls, send } = recordingFetch();
    const client = new PosClient({ baseUrl: service.baseUrl, apiKey: partner.key, fetch: send, baseDelayMs: 1, maxDelayMs: 5 });
    await client.uploadStores([buildUsdStore(usdStoreId)]);
    const records = [buildUsdTaxExcludedRecord({ seq: 0 })];
    const stale = { ...closeOfRecords(records), batch_id: '3f0c1c2a-5d1e-4c47-9a51-000000000001', batch_count: 9 };
    const day = await client.pushDay(records, stale);
    const sentClose = JSON.parse(calls.at(-1)?.body ?? '{}') as { batch_id: string; batch_count: number };
    expect(sentClose.batch_id).toBe(day.close.batch_id);
    expect(sentClose.batch_id).not.toBe(stale.batch_id);
    expect(sentClose.batch_count).toBe(1);
    expect(day.close.status).toBe('ACCEPTED');
  });
});

describe('PosClient before it sends a day', () => {
  it("refuses a day the service would refuse halfway with the service's own answer, and sends nothing", async () => {
    const { calls, send } = recordingFetch();
    const client = new PosClient({ baseUrl: service.baseUrl, apiKey: 'never-used', fetch: send, maxRecordsPerBatch: 2 });
    const records = Array.from({ length: 5 }, (_, seq) => buildUsdTaxExcludedRecord({ seq }));
    const broken = records.map((record, index) => (index === 4 ? { ...record, total_amount: '1.2.3' } : record));
    const error: unknown = await client.pushDay(broken, closeOfRecords(records)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PosRequestError);
    const refusal = error as PosRequestError;
    expect(refusal.sent).toBe(false);
    expect(refusal.status).toBe(400);
    expect((refusal.body as { error: { code: string; details: { path: string }[] } }).error.code).toBe('INVALID_PAYLOAD');
    expect(refusal.message).toContain('before sending anything');
    expect(calls).toEqual([]);
  });

  it("refuses a day past the store-day limits it is given with the service's own answer, and sends nothing", async () => {
    const { calls, send } = recordingFetch();
    const records = Array.from({ length: 5 }, (_, seq) => buildUsdTaxExcludedRecord({ seq }));
    const limited = (maxTransactions: number, maxBatches: number) =>
      new PosClient({
        baseUrl: service.baseUrl,
        apiKey: 'never-used',
        fetch: send,
        maxRecordsPerBatch: 2,
        storeDayLimits: { maxTransactions, maxBatches },
      });
    const refusalOf = async (client: PosClient, batchesSentBefore = 0) => {
      const error: unknown = await client
        .pushDay(records, closeOfRecords(records), { batchesSentBefore })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PosRequestError);
      return error as PosRequestError;
    };

    // Batches of 2, 2 and 1: the third would take the day to 5 transactions.
    const overTransactions = await refusalOf(limited(4, 10));
    expect(overTransactions.sent).toBe(false);
    expect(overTransactions.status).toBe(400);
    const body = overTransactions.body as { error: { code: string; message: string; request_id: string } };
    expect(body.error).toMatchObject({ code: 'STORE_DAY_TOO_LARGE', request_id: 'offline' });
    expect(body.error.message).toContain('already hold 4 transactions');
    // Two batches sent before and three now pass a limit of four batches.
    const overBatches = await refusalOf(limited(100, 4), 2);
    expect((overBatches.body as { error: { message: string } }).error.message).toContain('already hold 4 batches');
    expect(calls).toEqual([]);

    // A day within them is sent.
    const partner = await service.createPartner({ stores: [usdStoreId] });
    const fits = new PosClient({
      baseUrl: service.baseUrl,
      apiKey: partner.key,
      maxRecordsPerBatch: 2,
      storeDayLimits: { maxTransactions: 5, maxBatches: 3 },
    });
    await fits.uploadStores([buildUsdStore(usdStoreId)]);
    expect((await fits.pushDay(records, closeOfRecords(records))).batches.map((ack) => ack.status)).toEqual([
      'ACCEPTED',
      'ACCEPTED',
      'ACCEPTED',
    ]);
  });

  it('refuses a day whose records and close are in different currencies, which the service would refuse at the close, and sends nothing', async () => {
    const partner = await service.createPartner({ stores: [usdStoreId] });
    const { calls, send } = recordingFetch();
    const client = new PosClient({ baseUrl: service.baseUrl, apiKey: partner.key, fetch: send, maxRecordsPerBatch: 2, baseDelayMs: 1 });
    await client.uploadStores([buildUsdStore(usdStoreId)]);
    calls.length = 0;
    const refusalOf = async (records: TradeRecord[], close: DailyCloseTotals) => {
      const error: unknown = await client.pushDay(records, close).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PosRequestError);
      const refusal = error as PosRequestError;
      expect(refusal.sent).toBe(false);
      expect(refusal.status).toBe(400);
      expect(refusal.message).toContain('before sending anything: 400 INVALID_PAYLOAD');
      return { refusal, error: (refusal.body as Refusal).error };
    };

    // USD records, each batch of them one the USD store takes; the close in EUR.
    const records = Array.from({ length: 3 }, (_, seq) => buildUsdTaxExcludedRecord({ seq }));
    const euroClose = { ...closeOfRecords(records), currency: 'EUR' };
    const atClose = await refusalOf(records, euroClose);
    expect(atClose.error).toMatchObject({ code: 'INVALID_PAYLOAD', request_id: 'offline' });
    expect(atClose.error.details).toEqual([
      { path: '/currency', message: "must equal the currency of the day's trade records (USD), as both must equal the store's" },
    ]);
    expect(calls).toEqual([]);
    // The service refuses that close, for the store's currency, once the batches were applied: the
    // close alone (no batch of the day is sent) gets its answer.
    const sentAlone: unknown = await client.sendDailyClose(euroClose, 2).catch((caught: unknown) => caught);
    expect(sentAlone).toBeInstanceOf(PosRequestError);
    expect((sentAlone as PosRequestError).sent).toBe(true);
    expect(((sentAlone as PosRequestError).body as Refusal).error).toMatchObject({
      code: 'INVALID_PAYLOAD',
      details: [{ path: '/currency', message: "must equal the currency of the store's master data (USD)" }],
    });
    calls.length = 0;

    // One EUR record among USD ones, in the second batch: the service would refuse that batch after the first.
    const mixed = records.map((record, index) => (index === 2 ? { ...record, currency: 'EUR' } : record));
    const atBatch = await refusalOf(mixed, closeOfRecords(records));
    expect(atBatch.error.details).toEqual([
      {
        path: '/trade_records/0/currency',
        message: "must equal the currency of the day's daily close (USD), as both must equal the store's",
      },
    ]);
    expect(calls).toEqual([]);

    // The day in one currency is sent whole.
    const day = await client.pushDay(records, closeOfRecords(records));
    expect([...day.batches, day.close].map((ack) => ack.status)).toEqual(['ACCEPTED', 'ACCEPTED', 'ACCEPTED']);
  });

  it('refuses records that hold one trade_record_id twice, and sends nothing', async () => {
    const { calls, send } = recordingFetch();
    const client = new PosClient({ baseUrl: service.baseUrl, apiKey: 'never-used', fetch: send, maxRecordsPerBatch: 1 });
    const record = buildUsdTaxExcludedRecord({ seq: 0 });
    const error: unknown = await client
      .pushDay([record, { ...record, version: 2 }], closeOfRecords([record]))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toContain(`trade_record_id ${record.trade_record_id} is in the records more than once`);
    expect(calls).toEqual([]);
  });
});

describe('PosClient before it uploads', () => {
  it('refuses an upload over the body limit, counted in the UTF-8 bytes it would send, with 413 PAYLOAD_TOO_LARGE, and sends nothing', async () => {
    const { calls, send } = recordingFetch();
    const client = new PosClient({ baseUrl: service.baseUrl, apiKey: 'never-used', fetch: send });
    /** The bytes of an upload's body as the client writes it, under a batch_id of the same length. */
    const sizeOf = (body: object) => Buffer.byteLength(JSON.stringify({ batch_id: randomUUID(), ...body }));
    // Names of a three-byte character: the body is under the limit in characters, over it in bytes.
    const mappings = longNamedMappings(10_000, 200, '売');
    expect(JSON.stringify({ batch_id: randomUUID(), mappings }).length).toBeLessThan(serviceMaxBodyBytes);
    // One field as long as the limit: the size is checked before the content, as the service checks it.
    const stores = [{ ...buildUsdStore(usdStoreId), store_name: 'x'.repeat(serviceMaxBodyBytes) }];
    const products = buildProductBatch().products.map((product) => ({ ...product, category_id: 'x'.repeat(serviceMaxBodyBytes) }));
    const uploads: [string, () => Promise<unknown>, number][] = [
      ['uploadMapping', () => client.uploadMapping(mappings), sizeOf({ mappings })],
      ['uploadStores', () => client.uploadStores(stores), sizeOf({ stores })],
      ['uploadProducts', () => client.uploadProducts(products), sizeOf({ products })],
    ];
    for (const [method, upload, size] of uploads) {
      expect(size, method).toBeGreaterThan(serviceMaxBodyBytes);
      const error: unknown = await upload().catch((caught: unknown) => caught);
      expect(error, method).toBeInstanceOf(PosRequestError);
      const refusal = error as PosRequestError;
      expect(refusal.sent).toBe(false);
      expect(refusal.status).toBe(413);
      expect(refusal.message).toMatch(/^The kit refused the request before sending anything: 413 PAYLOAD_TOO_LARGE/);
      expect((refusal.body as { error: unknown }).error).toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        message: `The request body is ${size} bytes, more than the limit of ${serviceMaxBodyBytes} bytes.`,
        request_id: 'offline',
      });
    }
    expect(calls).toEqual([]);
  });
});

describe('PosClient waiting and retrying', () => {
  it('waits out a Retry-After longer than its own longest backoff', async () => {
    const partner = await service.createPartner({ stores: [usdStoreId] });
    const slept: number[] = [];
    const { send } = recordingFetch((call) =>
      call === 1
        ? Promise.resolve(
            new Response(JSON.stringify({ error: { code: 'RATE_LIMITED' } }), { status: 429, headers: { 'Retry-After': '45' } }),
          )
        : undefined,
    );
    const client = new PosClient({
      baseUrl: service.baseUrl,
      apiKey: partner.key,
      fetch: send,
      sleep: (ms) => {
        slept.push(ms);
        return Promise.resolve();
      },
    });
    expect((await client.uploadStores([buildUsdStore(usdStoreId)])).status).toBe('ACCEPTED');
    expect(slept).toEqual([45_000]);
  });

  it('gives up on an attempt that outlives timeoutMs and sends the same bytes again', async () => {
    const partner = await service.createPartner({ stores: [usdStoreId] });
    let abortedAfterMs: number | undefined;
    const { calls, send } = recordingFetch((call, _input, init) => {
      if (call !== 1) return undefined;
      const started = performance.now();
      // An answer that never comes: only the client's own time limit ends the attempt.
      return new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => {
          abortedAfterMs = performance.now() - started;
          reject(new Error('The attempt was aborted.', { cause: init.signal?.reason }));
        });
      });
    });
    const client = new PosClient({
      baseUrl: service.baseUrl,
      apiKey: partner.key,
      fetch: send,
      timeoutMs: 2_000,
      baseDelayMs: 1,
      maxDelayMs: 5,
    });
    const ack = await client.uploadStores([buildUsdStore(usdStoreId)]);
    expect(abortedAfterMs).toBeGreaterThanOrEqual(1_900);
    // Applied once: ACCEPTED, or ALREADY_RECEIVED should a slow answer have been cut off too.
    expect(['ACCEPTED', 'ALREADY_RECEIVED']).toContain(ack.status);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const call of calls) expect(call.body).toBe(calls[0]?.body);
  });

  it("sends a batch again after the Functions host's bodyless 500 (the service's own 500 is final: above)", async () => {
    const partner = await service.createPartner({ stores: [usdStoreId] });
    const { calls, send } = recordingFetch((call) => (call === 1 ? Promise.resolve(new Response('', { status: 500 })) : undefined));
    const client = new PosClient({ baseUrl: service.baseUrl, apiKey: partner.key, fetch: send, baseDelayMs: 1, maxDelayMs: 5 });
    expect((await client.uploadStores([buildUsdStore(usdStoreId)])).status).toBe('ACCEPTED');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.body).toBe(calls[0]?.body);
  });
});
