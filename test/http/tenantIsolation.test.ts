import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDailyClose, buildMappingBatch, buildProductBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { fixtureBusinessDate } from '../fixtures/tradeRecordFixtures.js';
import { startTestService, type TestService } from '../support/startTestService.js';
import { newBatchId, partnerWithStores, reconciled, tradeBatch, usdStore, warningCodes } from '../support/httpScenario.js';
import { ackOf, errorOf, mappingOf, reconciliationOf } from '../support/responseBodies.js';

let service: TestService;
beforeAll(async () => {
  // Reconcile as soon as a daily close arrives.
  service = await startTestService({ settings: { RECONCILE_DELAY_SECONDS: '0' } });
});
afterAll(async () => {
  await service.stop();
});

describe("partner B and partner A's stores", () => {
  it('B can neither push, close, query nor describe a store registered only for A', async () => {
    const storeOfA = `A-${randomUUID().slice(0, 6)}`;
    const a = await service.createPartner({ stores: [storeOfA] });
    expect((await service.call(a, 'PUT', 'stores', { batch_id: newBatchId(), stores: [buildUsdStore(storeOfA)] })).status).toBe(202);
    const b = await service.createPartner();

    const attempts: [string, string, unknown][] = [
      ['POST', 'trade-records', tradeBatch({ storeId: storeOfA })],
      ['POST', 'daily-close', { ...buildDailyClose('USD'), batch_id: newBatchId(), store_id: storeOfA }],
      ['GET', `daily-close/${storeOfA}/${fixtureBusinessDate}`, undefined],
      ['PUT', 'stores', { batch_id: newBatchId(), stores: [buildUsdStore(storeOfA)] }],
      [
        'PUT',
        'products',
        {
          batch_id: newBatchId(),
          products: [{ ...buildProductBatch().products[0], product_id: 'P-B-ONLY', store_id: storeOfA }],
        },
      ],
    ];
    for (const [method, path, body] of attempts) {
      const response = await service.call(b, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(errorOf(response).code).toBe('STORE_NOT_ALLOWED');
      expect(JSON.stringify(response.body)).not.toContain(a.partnerId);
    }
    // The same calls by A succeed: the refusals above were about B, not the bodies.
    expect((await service.call(a, 'POST', 'trade-records', attempts[0]![2])).status).toBe(202);
    expect((await service.call(a, 'GET', `daily-close/${storeOfA}/${fixtureBusinessDate}`)).status).toBe(200);
  });

  it('partners with the same store code see only their own data', async () => {
    const a = await partnerWithStores(service, { mapping: true });
    const b = await partnerWithStores(service);
    expect((await service.call(a, 'PUT', 'products', { ...buildProductBatch(), batch_id: newBatchId() })).status).toBe(202);
    expect((await service.call(a, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    const close = { ...buildDailyClose('USD'), batch_id: newBatchId(), net_sales_amount: '38.91', payment_total_amount: '48.36' };
    expect((await service.call(a, 'POST', 'daily-close', close)).status).toBe(202);
    expect((await reconciled(service, a, usdStore, fixtureBusinessDate)).status).toBe('MATCHED');

    // B's day of the same store code is untouched by A's close.
    const bResult = await service.call(b, 'GET', `daily-close/${usdStore}/${fixtureBusinessDate}`);
    expect(reconciliationOf(bResult).status).toBe('NOT_RECEIVED');
    // B's mapping is empty although A uploaded one.
    const bMapping = await service.call(b, 'GET', 'mappings/transaction-types');
    expect(bMapping.body).toEqual({ partner_id: b.partnerId, batch_id: null, updated_at: null, mappings: [] });
    // B sends the same transactions with an earlier last_modified_at: not stale, not closed, unmapped and
    // with unknown products for B (A's mapping and products do not apply to B).
    const older = tradeBatch();
    for (const record of older.trade_records) record.last_modified_at = '2026-03-01T09:00:00-05:00';
    const bPush = await service.call(b, 'POST', 'trade-records', older);
    expect(bPush.status).toBe(202);
    const codes = warningCodes(bPush);
    expect(codes).not.toContain('STALE_VERSION');
    expect(codes).not.toContain('DAY_ALREADY_CLOSED');
    expect(codes).toContain('UNMAPPED_TRANSACTION_TYPE');
    expect(codes).toContain('UNKNOWN_PRODUCT');
    // And A's result did not move.
    expect(reconciliationOf(await service.call(a, 'GET', `daily-close/${usdStore}/${fixtureBusinessDate}`)).status).toBe('MATCHED');
  });

  it('B reusing a batch_id that A used gets its own new batch (202 ACCEPTED)', async () => {
    const a = await partnerWithStores(service);
    const b = await partnerWithStores(service);
    const batchId = newBatchId();
    const aAck = await service.call(a, 'POST', 'trade-records', tradeBatch({ batchId, recordCount: 2 }));
    expect(aAck.status).toBe(202);
    const bAck = await service.call(b, 'POST', 'trade-records', tradeBatch({ batchId, recordCount: 3 }));
    expect(bAck.status).toBe(202);
    expect(bAck.body).toMatchObject({ batch_id: batchId, status: 'ACCEPTED', record_count: 3 });
    expect(warningCodes(bAck)).not.toContain('BATCH_ID_REUSED');

    const mappingId = newBatchId();
    expect((await service.call(a, 'PUT', 'mappings/transaction-types', { ...buildMappingBatch(), batch_id: mappingId })).status).toBe(202);
    const bMapping = await service.call(b, 'PUT', 'mappings/transaction-types', {
      batch_id: mappingId,
      mappings: [{ source_code: 'B1', standard_code: 'SALE' }],
    });
    expect(bMapping.status).toBe(202);
    expect(ackOf(bMapping).record_count).toBe(1);
    expect(mappingOf(await service.call(a, 'GET', 'mappings/transaction-types')).mappings).toHaveLength(4);
  });
});
