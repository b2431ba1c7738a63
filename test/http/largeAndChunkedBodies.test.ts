import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from '../support/startTestService.js';
import { errorOf } from '../support/responseBodies.js';
import { newBatchId, partnerWithStores, tradeBatch, usdStore } from '../support/httpScenario.js';
import { buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { testClock } from '../support/testClock.js';

const limit = 5 * 1024 * 1024;
const endpoints = [
  ['POST', 'trade-records'],
  ['PUT', 'stores'],
  ['PUT', 'products'],
] as const;

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

/** A JSON object of exactly `bytes` bytes. */
function jsonOfSize(bytes: number): Buffer {
  const head = `{"batch_id":"${newBatchId()}","pad":"`;
  const tail = '"}';
  return Buffer.from(head + 'x'.repeat(bytes - head.length - tail.length) + tail);
}

/** Sends with node:http (a second client library), the body in pieces; resolves with status and body. */
function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  pieces: readonly Buffer[],
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, agent: false });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    for (const piece of pieces) request.write(piece);
    request.end();
  });
}

function chunkedStream(total: Buffer, pieceBytes: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= total.length) {
        controller.close();
        return;
      }
      controller.enqueue(total.subarray(offset, offset + pieceBytes));
      offset += pieceBytes;
    },
  });
}

describe('a body over 5 MB', () => {
  const body = jsonOfSize(limit + 1);

  it.each(endpoints)('%s /%s: fetch reads the 413 every time (20 tries)', async (method, path) => {
    const partner = await partnerWithStores(service);
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const response = await fetch(`${service.baseUrl}/${path}`, {
        method,
        headers: { 'x-functions-key': partner.key, 'content-type': 'application/json' },
        body: new Uint8Array(body),
      });
      expect(response.status, `attempt ${attempt}`).toBe(413);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
    }
  });

  it.each(endpoints)('%s /%s: node:http reads the 413 every time, with and without Content-Length (20 tries)', async (method, path) => {
    const partner = await partnerWithStores(service);
    const headers = { 'x-functions-key': partner.key, 'content-type': 'application/json' };
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const chunked = attempt % 2 === 1;
      const response = await rawRequest(
        `${service.baseUrl}/${path}`,
        method,
        chunked ? { ...headers, 'transfer-encoding': 'chunked' } : { ...headers, 'content-length': String(body.length) },
        chunked ? [body.subarray(0, limit / 2), body.subarray(limit / 2)] : [body],
      );
      expect(response.status, `attempt ${attempt}${chunked ? ' (chunked)' : ''}`).toBe(413);
      expect(errorOf({ status: response.status, headers: new Headers(), body: JSON.parse(response.text) }).code).toBe('PAYLOAD_TOO_LARGE');
    }
  });
});

describe('chunked bodies', () => {
  it('a push sent in chunks without Content-Length is read whole and accepted', async () => {
    const partner = await partnerWithStores(service);
    const batch = Buffer.from(JSON.stringify(tradeBatch({ recordCount: 40 })));
    const response = await fetch(`${service.baseUrl}/trade-records`, {
      method: 'POST',
      headers: { 'x-functions-key': partner.key, 'content-type': 'application/json' },
      body: chunkedStream(batch, 1000),
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ status: 'ACCEPTED', record_count: 40 });
  });

  it('the same with node:http and explicit Transfer-Encoding: chunked', async () => {
    const partner = await partnerWithStores(service);
    const batch = Buffer.from(JSON.stringify({ batch_id: newBatchId(), stores: [buildUsdStore(usdStore)] }));
    const response = await rawRequest(
      `${service.baseUrl}/stores`,
      'PUT',
      { 'x-functions-key': partner.key, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      [batch.subarray(0, 10), batch.subarray(10, 50), batch.subarray(50)],
    );
    expect(response.status).toBe(202);
  });
});

describe('rate limit before the body', () => {
  // A service whose clock stands still in the middle of a minute: every call of a test falls in one
  // limit window, however slowly a loaded machine sends 5 MB bodies.
  let limited: TestService;
  beforeAll(async () => {
    const midMinute = testClock(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000));
    limited = await startTestService({ services: { clock: midMinute } });
  });
  afterAll(async () => {
    await limited.stop();
  });

  it('a partner over its limit gets 429, not 413, for a body over 5 MB', async () => {
    const partner = await partnerWithStores(limited);
    await limited.hq('partner', 'set-rate-limit', partner.partnerId, '1');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await limited.call(partner, 'POST', 'trade-records', jsonOfSize(limit + 1));
      statuses.push(response.status);
    }
    // The minute's one call passes the limit and meets the size check; the others are refused on the
    // key alone, before their bodies are read.
    expect(statuses).toEqual([413, 429, 429]);
  });

  it("a 429 answered while the body still arrives gives the body's bytes back at once", async () => {
    const partner = await partnerWithStores(limited);
    await limited.hq('partner', 'set-rate-limit', partner.partnerId, '1');
    const budget = limited.services.bodyBudget;
    // Spend the minute's one call, so that the next is refused on the key alone.
    expect((await limited.call(partner, 'POST', 'trade-records', tradeBatch({ recordCount: 2 }))).status).toBe(202);
    // A chunked push that sends its first bytes only (a body with Content-Length reaches the service
    // only once the host has received it whole, in Azure as here).
    const upload = http.request(`${limited.baseUrl}/trade-records`, {
      method: 'POST',
      headers: { 'x-functions-key': partner.key, 'content-type': 'application/json' },
      agent: false,
    });
    upload.on('error', () => undefined);
    const answered = new Promise<number>((resolve) => {
      upload.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
    });
    upload.write('{"batch_id":"');
    try {
      expect(await answered).toBe(429);
      // Nothing more was sent: the bytes must not wait for a body that may never arrive.
      await vi.waitFor(() => {
        expect(budget.heldBy(partner.partnerId)).toBe(0);
      });
      expect(budget.inUse).toBe(0);
    } finally {
      upload.destroy();
    }
  });
});

describe('request bytes in flight', () => {
  it('bodies beyond the instance budget get 503 with Retry-After, and fit again once others finished', async () => {
    const partner = await partnerWithStores(service);
    const budget = service.services.bodyBudget;
    // Hold almost the whole budget, as concurrent large pushes would.
    const held = budget.maxBytes - 1024;
    budget.take(held);
    try {
      const refused = await service.call(partner, 'POST', 'trade-records', tradeBatch({ recordCount: 20 }));
      expect(refused.status).toBe(503);
      expect(errorOf(refused).code).toBe('SERVICE_UNAVAILABLE');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      budget.give(held);
    }
    expect(budget.inUse).toBe(0);
    const accepted = await service.call(partner, 'POST', 'trade-records', tradeBatch({ recordCount: 20 }));
    expect(accepted.status).toBe(202);
    expect(budget.inUse).toBe(0);
  });

  it("one partner's slow large uploads hold at most its share: another partner still pushes, and so does it once they end", async () => {
    const [slow, other] = [await partnerWithStores(service), await partnerWithStores(service)];
    const budget = service.services.bodyBudget;
    const share = budget.partnerShareBytes;
    expect(share).toBeLessThan(budget.maxBytes);
    // Chunked uploads that send all but the end of a 5 MB body, then stall: each holds what arrived.
    // (A body with Content-Length reaches the service only once the host has received it whole.)
    const sent = limit - 1;
    const held: http.ClientRequest[] = [];
    while (budget.heldBy(slow.partnerId) + limit <= share) {
      const upload = http.request(`${service.baseUrl}/trade-records`, {
        method: 'POST',
        headers: { 'x-functions-key': slow.key, 'content-type': 'application/json' },
        agent: false,
      });
      upload.on('error', () => undefined);
      upload.write(`{"batch_id":"${'a'.repeat(sent - 13)}`);
      held.push(upload);
      const before = held.length * sent;
      await vi.waitFor(() => {
        expect(budget.heldBy(slow.partnerId)).toBe(before);
      });
    }
    try {
      expect(held.length).toBeGreaterThan(0);
      const overShare = await rawRequest(
        `${service.baseUrl}/trade-records`,
        'POST',
        { 'x-functions-key': slow.key, 'content-type': 'application/json', 'content-length': String(limit) },
        [jsonOfSize(limit)],
      );
      expect(overShare.status).toBe(503);
      expect(overShare.text).toContain('your share');
      expect(overShare.text).toContain('SERVICE_UNAVAILABLE');
      // Room is left for everyone else.
      expect((await service.call(other, 'POST', 'trade-records', tradeBatch({ recordCount: 20 }))).status).toBe(202);
    } finally {
      for (const upload of held) upload.destroy();
    }
    await vi.waitFor(() => {
      expect(budget.heldBy(slow.partnerId)).toBe(0);
    });
    expect((await service.call(slow, 'POST', 'trade-records', tradeBatch({ recordCount: 20 }))).status).toBe(202);
    expect(budget.inUse).toBe(0);
  });
});
