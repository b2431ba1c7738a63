import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDailyClose, buildProductBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { fixtureBusinessDate } from '../fixtures/tradeRecordFixtures.js';
import { errorCodeOf } from '../support/responseBodies.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { buildDayBatch, preparePartner } from './support/dayScenario.js';
import { seededRandom, seededUuid } from './support/random.js';
import { testClock } from '../support/testClock.js';

const clock = testClock();
let service: TestService;
const random = seededRandom(77);
let a: TestPartner;
let b: TestPartner;
const keys: Record<string, string | null> = {};
const storeA = 'ISO-A-0001';
const storeB = 'ISO-B-0001';
const unregistered = 'ISO-NOBODY-01';

function issuedKey(out: string[]): string {
  return out[out.length - 1]!;
}

beforeAll(async () => {
  service = await startTestService({ services: { clock } });
  a = await preparePartner(service, random, storeA);
  b = await preparePartner(service, random, storeB);
  // B's data, which nothing A does may ever reveal.
  const secret = buildDayBatch(random, storeB, fixtureBusinessDate, 2, 'SECRETB');
  expect((await service.call(b, 'POST', 'trade-records', secret)).status).toBe(202);
  const mappingB = {
    batch_id: seededUuid(random),
    mappings: [
      { source_code: 'B-ONLY-CODE', source_name: 'B secret', standard_code: 'SALE' },
      { source_code: '01', standard_code: 'SALE' },
    ],
  };
  expect((await service.call(b, 'PUT', 'mappings/transaction-types', mappingB)).status).toBe(202);

  const revoked = await service.hq('key', 'issue', a.partnerId);
  const revokedId = /key (key-[0-9a-f]+) issued/.exec(revoked.out[0] ?? '')?.[1] ?? '';
  expect((await service.hq('key', 'revoke', a.partnerId, revokedId)).code).toBe(0);
  const expired = await service.hq('key', 'issue', a.partnerId, '--expires', new Date(clock().getTime() + 3_600_000).toISOString());
  expect(expired.code).toBe(0);
  const inactive = await preparePartner(service, random, 'ISO-C-0001');
  expect((await service.hq('partner', 'deactivate', inactive.partnerId)).code).toBe(0);
  Object.assign(keys, {
    'valid key': a.key,
    'revoked key': issuedKey(revoked.out),
    'expired key': issuedKey(expired.out),
    "other partner's key": b.key,
    'no key': null,
    'inactive partner': inactive.key,
  });
  clock.advance(3_600_000);
});
afterAll(async () => {
  await service.stop();
});

interface Call {
  method: string;
  path: string;
  body?: unknown;
  storeBound: boolean;
  success: number;
}

function calls(store: string): Record<string, Call> {
  const product = buildProductBatch();
  return {
    'POST /trade-records': {
      method: 'POST',
      path: 'trade-records',
      body: buildDayBatch(random, store, fixtureBusinessDate, 1, `iso-${store}`),
      storeBound: true,
      success: 202,
    },
    'POST /daily-close': {
      method: 'POST',
      path: 'daily-close',
      body: { ...buildDailyClose('USD'), batch_id: seededUuid(random), store_id: store },
      storeBound: true,
      success: 202,
    },
    'GET /daily-close/{store}/{date}': {
      method: 'GET',
      path: `daily-close/${store}/${fixtureBusinessDate}`,
      storeBound: true,
      success: 200,
    },
    'PUT /stores': {
      method: 'PUT',
      path: 'stores',
      body: { batch_id: seededUuid(random), stores: [buildUsdStore(store)] },
      storeBound: true,
      success: 202,
    },
    'PUT /products': {
      method: 'PUT',
      path: 'products',
      body: { ...product, batch_id: seededUuid(random), products: product.products.slice(0, 4).map((p) => ({ ...p, store_id: store })) },
      storeBound: true,
      success: 202,
    },
    'PUT /mappings/transaction-types': {
      method: 'PUT',
      path: 'mappings/transaction-types',
      body: { batch_id: seededUuid(random), mappings: [{ source_code: '01', standard_code: 'SALE' }] },
      storeBound: false,
      success: 202,
    },
    'GET /mappings/transaction-types': { method: 'GET', path: 'mappings/transaction-types', storeBound: false, success: 200 },
    'GET /reference/transaction-types': { method: 'GET', path: 'reference/transaction-types', storeBound: false, success: 200 },
  };
}

describe('tenant isolation matrix', () => {
  it('every endpoint × store × key gets the contract status, and nothing of another partner shows', async () => {
    const stores = { 'own store': storeA, "other partner's store": storeB, 'unregistered store': unregistered };
    const mismatches: string[] = [];
    const leaks: string[] = [];
    let cells = 0;
    for (const [keyName, key] of Object.entries(keys)) {
      for (const [storeName, store] of Object.entries(stores)) {
        for (const [endpoint, call] of Object.entries(calls(store))) {
          cells += 1;
          const response = await service.call(key === null ? null : { key }, call.method, call.path, call.body);
          // The store as the caller sees it: B's key makes B's store its own and A's a stranger's.
          const callerOwnsStore = keyName === "other partner's key" ? store === storeB : store === storeA;
          let expected: number;
          let code: string | undefined;
          if (key === null || keyName === 'revoked key' || keyName === 'expired key') [expected, code] = [401, 'UNAUTHORIZED'];
          else if (keyName === 'inactive partner') [expected, code] = [403, 'PARTNER_INACTIVE'];
          else if (call.storeBound && !callerOwnsStore) [expected, code] = [403, 'STORE_NOT_ALLOWED'];
          else expected = call.success;
          // A key the host does not hold (none, or revoked/expired once the host dropped it) is
          // refused by the host itself: 401 without a body.
          const refusedByHost = expected === 401 && response.status === 401 && response.body === undefined;
          const answeredCode = errorCodeOf(response);
          if (response.status !== expected || (code !== undefined && !refusedByHost && answeredCode !== code)) {
            mismatches.push(
              `${endpoint} | ${storeName} | ${keyName}: ${response.status} ${answeredCode ?? ''} (expected ${expected} ${code ?? ''})`,
            );
          }
          const text = JSON.stringify(response.body ?? '');
          const foreign =
            keyName === "other partner's key" ? [a.partnerId, 'T-iso-ISO-A'] : [b.partnerId, 'SECRETB', 'B-ONLY-CODE', 'B secret'];
          for (const secret of foreign) if (text.includes(secret)) leaks.push(`${endpoint} | ${storeName} | ${keyName} shows ${secret}`);
        }
      }
    }
    console.log(
      `tenant isolation: ${cells} cells, ${mismatches.length} wrong statuses, ${leaks.length} responses revealing another partner's data`,
    );
    expect(cells).toBe(6 * 3 * 8);
    expect(mismatches).toEqual([]);
    expect(leaks).toEqual([]);
  });
});
