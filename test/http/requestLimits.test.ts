import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMappingBatch, buildProductBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { newBatchId, partnerWithStores, tradeBatch, usdStore } from '../support/httpScenario.js';
import { errorOf, readResponse } from '../support/responseBodies.js';

const limit = 5 * 1024 * 1024;

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

/** A JSON object of exactly `bytes` bytes. */
function jsonOfSize(bytes: number): string {
  const head = `{"batch_id":"${newBatchId()}","pad":"`;
  const tail = '"}';
  return head + 'x'.repeat(bytes - head.length - tail.length) + tail;
}

describe('PAYLOAD_TOO_LARGE', () => {
  it('answers 413 for a body of 5 MB + 1 byte on trade-records, stores and products', async () => {
    const partner = await partnerWithStores(service);
    const body = jsonOfSize(limit + 1);
    expect(Buffer.byteLength(body)).toBe(limit + 1);
    for (const [method, path] of [
      ['POST', 'trade-records'],
      ['PUT', 'stores'],
      ['PUT', 'products'],
    ] as const) {
      const response = await service.call(partner, method, path, body);
      expect(response.status, path).toBe(413);
      expect(errorOf(response).code).toBe('PAYLOAD_TOO_LARGE');
    }
  });

  it('reads a body of exactly 5 MB (then judges its content)', async () => {
    const partner = await partnerWithStores(service);
    const response = await service.call(partner, 'PUT', 'stores', jsonOfSize(limit));
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('INVALID_PAYLOAD');
  });

  it('answers 413 for an over-size body sent without Content-Length', async () => {
    const partner = await partnerWithStores(service);
    const url = new URL(`${service.baseUrl}/trade-records`);
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-functions-key': partner.key, 'transfer-encoding': 'chunked' },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      const chunk = 'x'.repeat(256 * 1024);
      request.write('{"pad":"');
      for (let sent = 0; sent <= limit; sent += chunk.length) request.write(chunk);
      request.end('"}');
    });
    expect(status).toBe(413);
  });
});

describe('UNSUPPORTED_MEDIA_TYPE', () => {
  function pushes(): [string, string, unknown][] {
    return [
      ['POST', 'trade-records', tradeBatch()],
      ['POST', 'daily-close', { batch_id: newBatchId() }],
      ['PUT', 'stores', { batch_id: newBatchId(), stores: [buildUsdStore(usdStore)] }],
      ['PUT', 'products', { ...buildProductBatch(), batch_id: newBatchId() }],
      ['PUT', 'mappings/transaction-types', { ...buildMappingBatch(), batch_id: newBatchId() }],
    ];
  }

  it('answers 415 for text/plain on every push endpoint', async () => {
    const partner = await partnerWithStores(service);
    for (const [method, path, body] of pushes()) {
      const response = await service.call(partner, method, path, JSON.stringify(body), { 'content-type': 'text/plain' });
      expect(response.status, path).toBe(415);
      expect(errorOf(response).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('answers 415 when Content-Type is missing on every push endpoint', async () => {
    const partner = await partnerWithStores(service);
    for (const [method, path, body] of pushes()) {
      const response = await fetch(`${service.baseUrl}/${path}`, {
        method,
        headers: { 'x-functions-key': partner.key },
        body: new TextEncoder().encode(JSON.stringify(body)),
      });
      expect(response.status, path).toBe(415);
      expect(errorOf(await readResponse(response)).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('accepts application/json with a charset parameter', async () => {
    const partner = await partnerWithStores(service);
    const response = await service.call(partner, 'POST', 'trade-records', tradeBatch(), {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(response.status).toBe(202);
  });
});

/** Waits past the end of the current rate-limit minute when it is about to roll over. */
async function awayFromMinuteBoundary(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 57_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
}

async function expectLimitedAfter(target: TestService, partner: TestPartner, allowed: number): Promise<void> {
  for (let i = 0; i < allowed; i++) {
    const ok = await target.call(partner, 'POST', 'trade-records', tradeBatch({ recordCount: 1, batchSeq: i + 1 }));
    expect(ok.status, `call ${i + 1}`).toBe(202);
  }
  const limited = await target.call(partner, 'POST', 'trade-records', tradeBatch({ recordCount: 1 }));
  expect(limited.status).toBe(429);
  expect(errorOf(limited).code).toBe('RATE_LIMITED');
  const retryAfter = Number(limited.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('RATE_LIMITED', () => {
  it('limits /trade-records per partner at the rate HQ set; other partners and endpoints are unaffected', async () => {
    await awayFromMinuteBoundary();
    const limitedPartner = await partnerWithStores(service);
    const other = await partnerWithStores(service);
    expect((await service.hq('partner', 'set-rate-limit', limitedPartner.partnerId, '3')).code).toBe(0);
    await expectLimitedAfter(service, limitedPartner, 3);

    expect((await service.call(other, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    const stores = await service.call(limitedPartner, 'PUT', 'stores', { batch_id: newBatchId(), stores: [buildUsdStore(usdStore)] });
    expect(stores.status).toBe(202);
    expect((await service.call(limitedPartner, 'GET', 'mappings/transaction-types')).status).toBe(200);
  });

  describe('with a default of 3 calls per minute', () => {
    let strict: TestService;
    beforeAll(async () => {
      strict = await startTestService({ settings: { RATE_LIMIT_PER_MINUTE: '3' } });
    });
    afterAll(async () => {
      await strict.stop();
    });

    it('applies the default to partners without their own limit', async () => {
      await awayFromMinuteBoundary();
      const partner = await partnerWithStores(strict);
      const other = await partnerWithStores(strict);
      await expectLimitedAfter(strict, partner, 3);
      expect((await strict.call(other, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    });
  });
});
