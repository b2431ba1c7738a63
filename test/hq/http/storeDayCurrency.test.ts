/**
 * A store's currency changes (PUT /pos/v1/stores, contract §4.5) after a USD day was reconciled.
 * The day's figures are USD amounts (the close's currency, §2.11); HQ keeps showing them as USD.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestOperator, type TestService } from '../../support/startTestService.js';
import { buildRecord, USD } from '../../fixtures/tradeRecordFixtures.js';
import { push, sendClose, settled, setUpPartner } from '../../e2e/support/partnerFlow.js';
import { controlTotals, dailyClose, POS_CODES, shifted, storeBody, tradeBatch } from '../../e2e/support/storeDayKit.js';
import { objectOf } from '../support/hqBodies.js';

let service: TestService;
let viewer: TestOperator;

beforeAll(async () => {
  service = await startTestService();
  viewer = await service.createOperator('viewer');
});
afterAll(async () => {
  await service.stop();
});

describe('store currency changed after a USD day was reconciled', () => {
  it("HQ's store-day detail keeps the day's own currency and its comparison differences to the cent", async () => {
    const { partner, days } = await setUpPartner(service, [USD]);
    const day = days[0]!;
    const records = [buildRecord(day, { id: 'CUR-1', code: 'S01', items: [{ product: 'P', name: 'P', qty: 1, unit: 1000 }] })];
    await push(service, partner, tradeBatch(day, 1, records));
    // The close is 3 cents off on net sales: MISMATCHED by 0.03 USD.
    const totals = controlTotals(USD, records, { mapping: POS_CODES });
    await sendClose(service, partner, dailyClose(day, 1, shifted(USD, totals, 'net_sales_amount', 3)));
    expect((await settled(service, partner, day)).differences).toEqual(['net_sales_amount']);

    const path = `hq/v1/store-days/${partner.partnerId}/${day.storeId}/${day.businessDate}`;
    const before = objectOf(await service.callHost(viewer, 'GET', path));
    const rowBefore = (before.comparison as { field: string; difference: string }[]).find((r) => r.field === 'net_sales_amount');
    expect([before.currency, rowBefore?.difference]).toEqual(['USD', '-0.03']);

    // The store moves to JPY (e.g. the partner corrects its master data for future days).
    const jpy = { ...storeBody(day), currency: 'JPY', last_modified_at: new Date().toISOString() };
    expect((await service.call(partner, 'PUT', 'stores', { batch_id: randomUUID(), stores: [jpy] })).status).toBe(202);

    const after = objectOf(await service.callHost(viewer, 'GET', path));
    const rowAfter = (after.comparison as { field: string; difference: string; differs: boolean }[]).find(
      (r) => r.field === 'net_sales_amount',
    );
    // The day's amounts are USD (its close's currency): so must be its currency and its differences.
    expect([after.currency, rowAfter?.difference, rowAfter?.differs]).toEqual(['USD', '-0.03', true]);
  }, 60_000);
});
