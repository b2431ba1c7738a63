/**
 * Input real POS systems and attackers send, each through real HTTP and storage: the answer is a
 * clean refusal with the path of the field (or a clean acceptance), never a 5xx, a stuck or a
 * half-applied batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchLedger } from '../../src/storage/BatchLedger.js';
import { buildProductBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { buildDailyClose } from '../fixtures/masterDataFixtures.js';
import { newBatchId, partnerWithStores, tradeBatch, usdStore } from '../support/httpScenario.js';

/** The service's clock: business dates are judged against it. */
const now = new Date('2026-03-02T12:00:00Z');
let service: TestService;
let partner: TestPartner;
beforeAll(async () => {
  service = await startTestService({ services: { clock: () => now } });
  partner = await partnerWithStores(service);
});
afterAll(async () => {
  await service.stop();
});

function expectRefused(response: { status: number; body: any }, path: string): void {
  expect(response.status).toBe(400);
  expect(response.body.error.code).toBe('INVALID_PAYLOAD');
  expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
}

async function ledgerHas(batchId: string): Promise<boolean> {
  return (await new BatchLedger(service.services.storage.tables.batchLedger).get(partner.partnerId, batchId)) !== undefined;
}

describe('identifiers', () => {
  it('line and paragraph separators, controls, bidirectional controls and whitespace at an end are refused with the path, and nothing is stored', async () => {
    const bad = ['T\u2028-1', 'T\u2029-1', 'T\u0085-1', 'T\u0001-1', 'T\u202e-1', 'T\u2067-1', 'T\u200b-1', ' T-1', 'T-1 ', '\u3000', ''];
    for (const id of bad) {
      const batch = tradeBatch();
      batch.trade_records[1].trade_record_id = id;
      const response = await service.call(partner, 'POST', 'trade-records', batch);
      expectRefused(response, '/trade_records/1/trade_record_id');
      expect(await ledgerHas(batch.batch_id)).toBe(false);
    }
    const stores = { batch_id: newBatchId(), stores: [{ ...buildUsdStore(usdStore), store_id: 'NYC\u2028-0001' }] };
    expectRefused(await service.call(partner, 'PUT', 'stores', stores), '/stores/0/store_id');
    const products: any = { ...buildProductBatch(), batch_id: newBatchId() };
    products.products[2].product_id = 'P\u2029X';
    products.modifier_groups[0].group_id = 'MG ';
    const refused = await service.call(partner, 'PUT', 'products', products);
    expectRefused(refused, '/products/2/product_id');
    expectRefused(refused, '/modifier_groups/0/group_id');
  });
});

describe('business dates', () => {
  it('are accepted from 2000-01-01 to two days after today (UTC), and refused outside with the path', async () => {
    const at = (date: string) => {
      const batch = tradeBatch({ businessDate: date });
      return service.call(partner, 'POST', 'trade-records', batch);
    };
    for (const date of ['2000-01-01', '2026-03-04']) expect((await at(date)).status, date).toBe(202);
    for (const date of ['0000-01-01', '1999-12-31', '2026-03-05', '2099-01-01']) {
      const refused = await at(date);
      expectRefused(refused, '/business_date');
      expect(refused.body.error.details[0].message).toContain('2026-03-04');
    }
    const close = { ...buildDailyClose('USD'), batch_id: newBatchId(), business_date: '0000-01-01' };
    expectRefused(await service.call(partner, 'POST', 'daily-close', close), '/business_date');
    const later = { ...buildDailyClose('USD'), batch_id: newBatchId(), business_date: '2026-03-04' };
    expect((await service.call(partner, 'POST', 'daily-close', later)).status).toBe(202);
  });
});

describe('array sizes', () => {
  it('a record with 600 payments is refused at validation with the path, before anything is stored', async () => {
    const batch = tradeBatch();
    const template = batch.trade_records[0].payments[0];
    batch.trade_records[0].payments = Array.from({ length: 600 }, (_, i) => ({
      ...template,
      payment_id: `P-600-${i}`,
      payment_type: 'X'.repeat(50),
    }));
    const response = await service.call(partner, 'POST', 'trade-records', batch);
    expectRefused(response, '/trade_records/0/payments');
    expect(response.body.error.details.find((d: { path: string }) => d.path === '/trade_records/0/payments').message).toBe(
      'must hold at most 50 items',
    );
    expect(await ledgerHas(batch.batch_id)).toBe(false);
  });
});
