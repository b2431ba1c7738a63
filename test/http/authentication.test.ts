import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDailyClose, buildMappingBatch, buildProductBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { fixtureBusinessDate } from '../fixtures/tradeRecordFixtures.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { newBatchId, partnerWithStores, tradeBatch, usdStore } from '../support/httpScenario.js';
import { errorOf } from '../support/responseBodies.js';
import { testClock } from '../support/testClock.js';

const clock = testClock();
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ services: { clock } });
});
afterAll(async () => {
  await service.stop();
});

/** Every endpoint that needs a key, with a valid body for the pushes. */
function everyEndpoint(): [string, string, unknown][] {
  return [
    ['POST', 'trade-records', tradeBatch()],
    ['POST', 'daily-close', { ...buildDailyClose('USD'), batch_id: newBatchId() }],
    ['GET', `daily-close/${usdStore}/${fixtureBusinessDate}`, undefined],
    ['PUT', 'stores', { batch_id: newBatchId(), stores: [buildUsdStore(usdStore)] }],
    ['PUT', 'products', { ...buildProductBatch(), batch_id: newBatchId() }],
    ['PUT', 'mappings/transaction-types', { ...buildMappingBatch(), batch_id: newBatchId() }],
    ['GET', 'mappings/transaction-types', undefined],
    ['GET', 'reference/transaction-types', undefined],
  ];
}

async function expectEveryEndpoint(who: TestPartner | { key: string } | null, status: number, code: string): Promise<void> {
  for (const [method, path, body] of everyEndpoint()) {
    const response = await service.call(who, method, path, body);
    expect(response.status, `${method} ${path}`).toBe(status);
    expect(errorOf(response).code, `${method} ${path}`).toBe(code);
  }
}

/**
 * A key the host does not hold is refused by the host itself: 401 with an empty body, before any
 * code of the service runs (the local host holds every key from its issue to its revocation, as
 * Azure holds the host keys the HQ tool sets and deletes).
 */
async function expectHostRefusesEveryEndpoint(who: { key: string } | null): Promise<void> {
  for (const [method, path, body] of everyEndpoint()) {
    const response = await service.call(who, method, path, body);
    expect(response.status, `${method} ${path}`).toBe(401);
    expect(response.body, `${method} ${path}`).toBeUndefined();
  }
}

/**
 * A revoked or expired key: 401 either from the host (once it dropped the key) with no body, or
 * from the service (while the host still holds it) with the JSON error.
 */
async function expectRefusedEverywhere(who: TestPartner | { key: string }): Promise<void> {
  for (const [method, path, body] of everyEndpoint()) {
    const response = await service.call(who, method, path, body);
    expect(response.status, `${method} ${path}`).toBe(401);
    if (response.body !== undefined) expect(errorOf(response).code, `${method} ${path}`).toBe('UNAUTHORIZED');
  }
}

async function canRead(who: TestPartner | { key: string }): Promise<number> {
  return (await service.call(who, 'GET', 'mappings/transaction-types')).status;
}

describe('API key', () => {
  it('missing: every endpoint answers 401 UNAUTHORIZED', async () => {
    await expectHostRefusesEveryEndpoint(null);
    const blank = await service.call({ key: '' }, 'GET', 'reference/transaction-types');
    expect(blank.status).toBe(401);
  });

  it('unknown: every endpoint answers 401 UNAUTHORIZED', async () => {
    await expectHostRefusesEveryEndpoint({ key: 'Zm9yZ2VkLWtleS10aGF0LWhxLW5ldmVyLWlzc3VlZA' });
    const huge = await service.call({ key: 'k'.repeat(4000) }, 'GET', 'reference/transaction-types');
    expect(huge.status).toBe(401);
  });

  it('revoked with the HQ tool: 401, while another active key of the partner keeps working', async () => {
    const partner = await partnerWithStores(service);
    const second = await service.hq('key', 'issue', partner.partnerId);
    const secondKey = { key: second.out[second.out.length - 1]! };
    expect(await canRead(partner)).toBe(200);
    expect(await canRead(secondKey)).toBe(200);

    const revoked = await service.hq('key', 'revoke', partner.partnerId, partner.keyId);
    expect(revoked.code).toBe(0);
    await expectRefusedEverywhere(partner);
    expect(await canRead(secondKey)).toBe(200);
  });

  it('expired: works until its expiry, then 401', async () => {
    const partner = await partnerWithStores(service);
    const expiresAt = clock().getTime() + 3_600_000;
    const issued = await service.hq('key', 'issue', partner.partnerId, '--expires', new Date(expiresAt).toISOString());
    expect(issued.code).toBe(0);
    const shortLived = { key: issued.out[issued.out.length - 1]! };
    expect(await canRead(shortLived)).toBe(200);
    clock.advance(3_600_000);
    // The host still holds an expired key (nothing deletes its host key), so the service answers.
    const refused = await service.call(shortLived, 'GET', 'mappings/transaction-types');
    expect(refused.status).toBe(401);
    expect(errorOf(refused).code).toBe('UNAUTHORIZED');
    await expectRefusedEverywhere(shortLived);
    expect(await canRead(partner)).toBe(200);
  });
});

describe('partner status', () => {
  it('an inactive partner gets 403 PARTNER_INACTIVE on every endpoint; activating restores access', async () => {
    const partner = await partnerWithStores(service);
    expect((await service.hq('partner', 'deactivate', partner.partnerId)).code).toBe(0);
    await expectEveryEndpoint(partner, 403, 'PARTNER_INACTIVE');
    expect((await service.call(partner, 'GET', 'health')).status).toBe(200);

    expect((await service.hq('partner', 'activate', partner.partnerId)).code).toBe(0);
    expect(await canRead(partner)).toBe(200);
    const push = await service.call(partner, 'POST', 'trade-records', tradeBatch());
    expect(push.status).toBe(202);
  });
});
