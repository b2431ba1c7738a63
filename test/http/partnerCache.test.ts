import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildJpyStore, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { fixtureBusinessDate } from '../fixtures/tradeRecordFixtures.js';
import { partnerWithStores, tradeBatch, usdStore } from '../support/httpScenario.js';
import { errorOf, errorPaths } from '../support/responseBodies.js';
import { startTestService, type TestService } from '../support/startTestService.js';
import { testClock } from '../support/testClock.js';

/**
 * PARTNER_CACHE_SECONDS: what an instance read about its caller is trusted for that long, and no
 * longer. The clock is the service's own, moved by the test: nothing here waits for real time.
 */
const cacheSeconds = 30;
const clock = testClock();
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ settings: { PARTNER_CACHE_SECONDS: String(cacheSeconds) }, services: { clock } });
});
afterAll(async () => {
  await service.stop();
});

describe('partner cache', () => {
  it('a revoked key is refused on every endpoint once the cache time has passed', async () => {
    const partner = await partnerWithStores(service);
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    expect((await service.hq('key', 'revoke', partner.partnerId, partner.keyId)).code).toBe(0);

    clock.advance(cacheSeconds * 1000);
    for (const [method, path, body] of [
      ['POST', 'trade-records', tradeBatch()],
      ['GET', 'mappings/transaction-types', undefined],
      ['GET', `daily-close/${usdStore}/${fixtureBusinessDate}`, undefined],
    ] as const) {
      const response = await service.call(partner, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(401);
      // 401 from the host (once it dropped the key) has no body; from the service it is the JSON error.
      if (response.body !== undefined) expect(errorOf(response).code).toBe('UNAUTHORIZED');
    }
  });

  it('a deactivated partner keeps working until the cache time has passed, then gets 403', async () => {
    const partner = await partnerWithStores(service);
    expect((await service.call(partner, 'GET', 'mappings/transaction-types')).status).toBe(200);
    expect((await service.hq('partner', 'deactivate', partner.partnerId)).code).toBe(0);

    clock.advance(cacheSeconds * 1000 - 1);
    expect((await service.call(partner, 'GET', 'mappings/transaction-types')).status).toBe(200);
    clock.advance(1);
    const refused = await service.call(partner, 'GET', 'mappings/transaction-types');
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('PARTNER_INACTIVE');

    // What is refused is not remembered: activated again, the partner works at once.
    expect((await service.hq('partner', 'activate', partner.partnerId)).code).toBe(0);
    expect((await service.call(partner, 'GET', 'mappings/transaction-types')).status).toBe(200);
  });

  it('a key issued after the partner was seen works at once, and an expired key is refused at its expiry', async () => {
    const partner = await partnerWithStores(service);
    const expiresAt = new Date(clock().getTime() + 10_000).toISOString();
    const issued = await service.hq('key', 'issue', partner.partnerId, '--expires', expiresAt);
    expect(issued.code).toBe(0);
    const second = { key: issued.out.at(-1)! };
    expect((await service.call(second, 'GET', 'mappings/transaction-types')).status).toBe(200);
    clock.advance(10_000);
    expect((await service.call(second, 'GET', 'mappings/transaction-types')).status).toBe(401);
    expect((await service.call(partner, 'GET', 'mappings/transaction-types')).status).toBe(200);
  });

  it('a registration remembered for one partner never admits another, and a new registration works at once', async () => {
    const owner = await partnerWithStores(service);
    expect((await service.call(owner, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    const other = await service.createPartner({ stores: ['LDN-0001'] });
    const day = `daily-close/${usdStore}/${fixtureBusinessDate}`;
    const refused = await service.call(other, 'GET', day);
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('STORE_NOT_ALLOWED');

    expect((await service.hq('store', 'register', other.partnerId, usdStore)).code).toBe(0);
    expect((await service.call(other, 'GET', day)).status).not.toBe(403);
  });

  it('a retirement takes effect once the cache time has passed; reads stay open, and a reactivation works at once', async () => {
    const partner = await partnerWithStores(service);
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    expect((await service.hq('store', 'retire', partner.partnerId, usdStore)).code).toBe(0);

    // The registration this instance read before the retirement is trusted until the cache time is up.
    clock.advance(cacheSeconds * 1000 - 1);
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    clock.advance(1);
    const refused = await service.call(partner, 'POST', 'trade-records', tradeBatch());
    expect([refused.status, errorOf(refused).code]).toEqual([403, 'STORE_NOT_ALLOWED']);
    // Reading the store's past is not sending: it stays open, on the retirement just read.
    expect((await service.call(partner, 'GET', `daily-close/${usdStore}/${fixtureBusinessDate}`)).status).toBe(200);

    // What is refused is not remembered: reactivated, the store takes pushes at once.
    expect((await service.hq('store', 'reactivate', partner.partnerId, usdStore)).code).toBe(0);
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
  });

  it('a store uploaded through this instance is checked with its new currency at once', async () => {
    const partner = await partnerWithStores(service);
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    const nowJpy = { ...buildJpyStore(usdStore), last_modified_at: '2026-02-21T09:00:00-05:00' };
    expect((await service.call(partner, 'PUT', 'stores', { batch_id: randomUUID(), stores: [nowJpy] })).status).toBe(202);

    const refused = await service.call(partner, 'POST', 'trade-records', tradeBatch());
    expect(refused.status).toBe(400);
    expect(errorPaths(refused)).toContain('/trade_records/0/currency');
    // And back: the USD batch is accepted again.
    const usdAgain = { ...buildUsdStore(usdStore), last_modified_at: '2026-02-22T09:00:00-05:00' };
    expect((await service.call(partner, 'PUT', 'stores', { batch_id: randomUUID(), stores: [usdAgain] })).status).toBe(202);
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
  });
});
