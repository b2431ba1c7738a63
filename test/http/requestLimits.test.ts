import { gzipSync } from 'node:zlib';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMappingBatch, buildProductBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { newBatchId, partnerWithStores, tradeBatch, usdStore } from '../support/httpScenario.js';
import { errorOf, readResponse } from '../support/responseBodies.js';
import { testClock } from '../support/testClock.js';

const limit = 5 * 1024 * 1024;

// The rate limit counts per minute of the service's clock: a clock that stands five seconds into a
// minute keeps every count of this file inside one window. Each test's partners are its own, and
// none but the rate-limit tests sends more than one push.
const clock = testClock(new Date('2026-03-02T10:00:05Z'));
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ settings: { RATE_LIMIT_PER_MINUTE: '3' }, services: { clock } });
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

  it('accepts application/json with a charset parameter naming UTF-8, and an identity coding', async () => {
    const partner = await partnerWithStores(service);
    for (const headers of [
      { 'content-type': 'application/json; charset=utf-8' },
      { 'content-type': 'Application/JSON;Charset="UTF-8"' },
      { 'content-type': 'application/json', 'content-encoding': 'identity' },
    ]) {
      const response = await service.call(partner, 'POST', 'trade-records', tradeBatch(), headers);
      expect(response.status, JSON.stringify(headers)).toBe(202);
    }
  });

  it('answers 415 saying why to a body in another charset or compressed, and the batch_id can be sent again', async () => {
    const partner = await partnerWithStores(service);
    // Stores: no rate limit stands before the media type check.
    const batch = { batch_id: newBatchId(), stores: [buildUsdStore(usdStore)] };
    const refusals: [Record<string, string>, RegExp][] = [
      [{ 'content-type': 'application/json; charset=utf-16' }, /UTF-8/],
      [{ 'content-type': 'application/json; charset=iso-8859-1' }, /UTF-8/],
      [{ 'content-type': 'application/json', 'content-encoding': 'gzip' }, /uncompressed/],
      [{ 'content-type': 'application/json', 'content-encoding': 'identity, br' }, /uncompressed/],
    ];
    for (const [headers, message] of refusals) {
      const body = headers['content-encoding'] === undefined ? JSON.stringify(batch) : gzipSync(JSON.stringify(batch));
      const response = await service.call(partner, 'PUT', 'stores', body, headers);
      expect(response.status, JSON.stringify(headers)).toBe(415);
      expect(errorOf(response)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringMatching(message) as unknown });
    }
    expect((await service.call(partner, 'PUT', 'stores', batch)).status).toBe(202);
  });

  it('answers 415 to an HQ admin action whose body is compressed', async () => {
    const admin = await service.createOperator('admin');
    const partner = await partnerWithStores(service);
    const response = await service.callHost(
      admin,
      'POST',
      `hq/v1/partners/${partner.partnerId}/stores`,
      gzipSync(JSON.stringify({ store_ids: ['S-NEW'] })),
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    );
    expect(response.status).toBe(415);
    expect(errorOf(response).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

async function expectLimitedAfter(target: TestService, partner: TestPartner, allowed: number): Promise<void> {
  for (let i = 0; i < allowed; i++) {
    const ok = await target.call(partner, 'POST', 'trade-records', tradeBatch({ recordCount: 1, batchSeq: i + 1 }));
    expect(ok.status, `call ${i + 1}`).toBe(202);
  }
  const limited = await target.call(partner, 'POST', 'trade-records', tradeBatch({ recordCount: 1 }));
  expect(limited.status).toBe(429);
  expect(errorOf(limited).code).toBe('RATE_LIMITED');
  const retryAfter = Number(limited.headers.get('retry-after'));
  expect(retryAfter).toBe(55);
}

describe('RATE_LIMITED', () => {
  it('limits /trade-records per partner at the rate HQ set; other partners and endpoints are unaffected', async () => {
    const limitedPartner = await partnerWithStores(service);
    const other = await partnerWithStores(service);
    expect((await service.hq('partner', 'set-rate-limit', limitedPartner.partnerId, '2')).code).toBe(0);
    await expectLimitedAfter(service, limitedPartner, 2);

    expect((await service.call(other, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    const stores = await service.call(limitedPartner, 'PUT', 'stores', { batch_id: newBatchId(), stores: [buildUsdStore(usdStore)] });
    expect(stores.status).toBe(202);
    expect((await service.call(limitedPartner, 'GET', 'mappings/transaction-types')).status).toBe(200);
  });

  it('applies the default of 3 calls per minute to partners without their own limit', async () => {
    const partner = await partnerWithStores(service);
    const other = await partnerWithStores(service);
    await expectLimitedAfter(service, partner, 3);
    expect((await service.call(other, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
  });
});
