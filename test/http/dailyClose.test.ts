import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProjectRoot } from '../../src/config/findProjectRoot.js';
import { specValidator } from '../openapi/specAjv.js';
import type { DailyClose } from '../../src/domain/model/payloads.js';
import { buildDailyClose, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { fixtureBusinessDate } from '../fixtures/tradeRecordFixtures.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { expectInvalid, jpyStore, newBatchId, partnerWithStores, reconciled, tradeBatch, usdStore } from '../support/httpScenario.js';
import { withValueAt, withoutValueAt } from '../support/jsonEdits.js';
import { ackOf, errorOf, reconciliationOf } from '../support/responseBodies.js';

let service: TestService;
beforeAll(async () => {
  // Reconcile as soon as a daily close arrives.
  service = await startTestService({ settings: { RECONCILE_DELAY_SECONDS: '0' } });
});
afterAll(async () => {
  await service.stop();
});

const resultFields = ['actual', 'business_date', 'checked_at', 'diagnosis', 'differences', 'expected', 'status', 'store_id'];

function close(currency: 'USD' | 'JPY' = 'USD'): DailyClose {
  return { ...buildDailyClose(currency), batch_id: newBatchId() };
}

async function sendClose(partner: TestPartner, body: unknown) {
  return service.call(partner, 'POST', 'daily-close', body);
}

describe('POST /daily-close', () => {
  it('answers 202 with record_count 1, then 200 ALREADY_RECEIVED with the same receipt', async () => {
    const partner = await partnerWithStores(service);
    const body = close();
    const first = await sendClose(partner, body);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ batch_id: body.batch_id, status: 'ACCEPTED', record_count: 1, warnings: [] });
    const again = await sendClose(partner, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...ackOf(first), status: 'ALREADY_RECEIVED' });
  });

  it('names the other endpoint when a batch_id of a trade-records batch comes back as a close, which is not applied', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    const batch = tradeBatch({ batchId: newBatchId() });
    expect((await service.call(partner, 'POST', 'trade-records', batch)).status).toBe(202);
    const answer = await sendClose(partner, { ...close(), batch_id: batch.batch_id });
    expect(answer.status).toBe(200);
    expect(ackOf(answer)).toMatchObject({ status: 'ALREADY_RECEIVED', record_count: 3 });
    expect(ackOf(answer).warnings.at(-1)).toEqual({
      code: 'BATCH_ID_REUSED',
      path: 'batch_id',
      message:
        'This batch_id was first received with a different body at /pos/v1/trade-records, and this receipt is of that batch; the new body was not applied. Use a new batch_id for new data.',
    });
    // No close was recorded for the day.
    const day = await service.call(partner, 'GET', `daily-close/${usdStore}/${fixtureBusinessDate}`);
    expect(day.body).toMatchObject({ status: 'NOT_RECEIVED', expected: null });
  });

  it('rejects a missing field, a wrong type and a bad timestamp with INVALID_PAYLOAD', async () => {
    const partner = await partnerWithStores(service);
    const response = await sendClose(partner, withoutValueAt(close(), '/trade_record_count'));
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('INVALID_PAYLOAD');

    expectInvalid(await sendClose(partner, withValueAt(close(), '/batch_count', '1')), '/batch_count');

    const badTime = close();
    badTime.closed_at = 'tonight';
    expectInvalid(await sendClose(partner, badTime), '/closed_at');
  });

  it('rejects amounts with the wrong decimal places for USD and for JPY', async () => {
    const partner = await partnerWithStores(service);
    const usd = close('USD');
    usd.net_sales_amount = '35.9';
    expectInvalid(await sendClose(partner, usd), '/net_sales_amount');
    const jpy = close('JPY');
    jpy.tax_amount = '210.00';
    expectInvalid(await sendClose(partner, jpy), '/tax_amount');
    expect((await sendClose(partner, close('JPY'))).status).toBe(202);
  });

  it("rejects a currency differing from the store's", async () => {
    const partner = await partnerWithStores(service);
    const body = close('JPY');
    body.store_id = usdStore;
    expectInvalid(await sendClose(partner, body), '/currency');
  });

  it('warns STORE_NOT_UPLOADED while HQ has no master data for the store, whose currency then goes unchecked', async () => {
    const partner = await service.createPartner({ stores: [usdStore] });
    const before = await sendClose(partner, close());
    expect(before.status).toBe(202);
    expect(ackOf(before).warnings).toEqual([expect.objectContaining({ code: 'STORE_NOT_UPLOADED', path: 'store_id' })]);
    expect((await service.call(partner, 'PUT', 'stores', { batch_id: newBatchId(), stores: [buildUsdStore(usdStore)] })).status).toBe(202);
    expect(ackOf(await sendClose(partner, close())).warnings).toEqual([]);
  });

  it('refuses a store not registered for the partner', async () => {
    const partner = await partnerWithStores(service);
    const body = close();
    body.store_id = 'LAX-0404';
    const response = await sendClose(partner, body);
    expect(response.status).toBe(403);
    expect(errorOf(response).code).toBe('STORE_NOT_ALLOWED');
  });
});

describe('GET /daily-close/{store_id}/{business_date}', () => {
  it('answers NOT_RECEIVED before any daily close, with the contract fields only', async () => {
    const partner = await partnerWithStores(service);
    const response = await service.call(partner, 'GET', `daily-close/${usdStore}/${fixtureBusinessDate}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      store_id: usdStore,
      business_date: fixtureBusinessDate,
      status: 'NOT_RECEIVED',
      checked_at: null,
      expected: null,
      actual: null,
      differences: [],
      diagnosis: null,
    });
  });

  it('rejects a malformed business_date with INVALID_PAYLOAD', async () => {
    const partner = await partnerWithStores(service);
    for (const date of ['2026-3-1', '20260301', '2026-02-30', 'yesterday']) {
      const response = await service.call(partner, 'GET', `daily-close/${usdStore}/${date}`);
      expect(response.status, date).toBe(400);
      expect(errorOf(response).code).toBe('INVALID_PAYLOAD');
    }
  });

  it('refuses a store not registered for the partner', async () => {
    const partner = await partnerWithStores(service);
    const response = await service.call(partner, 'GET', `daily-close/LAX-0404/${fixtureBusinessDate}`);
    expect(response.status).toBe(403);
    expect(errorOf(response).code).toBe('STORE_NOT_ALLOWED');
  });

  it('reconciles to MATCHED when the transactions agree with the control totals', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    // Three USD fixture records: each nets 12.97 (total 16.12 less tax 1.15 and tip 2.00).
    const body = { ...close(), net_sales_amount: '38.91', payment_total_amount: '48.36' };
    expect((await sendClose(partner, body)).status).toBe(202);
    const result = await reconciled(service, partner, usdStore, fixtureBusinessDate);
    expect(Object.keys(result).sort()).toEqual(resultFields);
    expect(result.status).toBe('MATCHED');
    expect(result.differences).toEqual([]);
    expect(Date.parse(result.checked_at)).not.toBeNaN();
    expect(result.checked_at).toMatch(/Z$/);
    expect(result.expected).toMatchObject({ trade_record_count: 3, net_sales_amount: body.net_sales_amount });
    expect(result.actual).toEqual({ ...result.expected });
  });

  it('reconciles to MISMATCHED naming the fields that differ; the last close counts', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch({ currency: 'JPY' }))).status).toBe(202);
    const wrong = close('JPY');
    wrong.trade_record_count = 4;
    wrong.tip_amount = '5';
    expect((await sendClose(partner, wrong)).status).toBe(202);
    const mismatched = await reconciled(service, partner, jpyStore, fixtureBusinessDate);
    expect(mismatched.status).toBe('MISMATCHED');
    expect(mismatched.differences).toEqual(expect.arrayContaining(['trade_record_count', 'tip_amount']));
    expect(mismatched.differences).not.toContain('item_row_count');
    // The body, diagnosis included, is what the published document describes (and the kit's types say).
    const openApi = JSON.parse(readFileSync(path.join(findProjectRoot(), 'docs', 'openapi.json'), 'utf8')) as object;
    const matchesDocument = specValidator(openApi)('/components/schemas/ReconciliationResult');
    expect(matchesDocument(mismatched), JSON.stringify(matchesDocument.errors)).toBe(true);
    expect(mismatched.diagnosis.hints.length).toBeGreaterThan(0);

    const corrected = close('JPY');
    expect((await sendClose(partner, corrected)).status).toBe(202);
    const matched = await reconciled(service, partner, jpyStore, fixtureBusinessDate);
    expect(matched.status).toBe('MATCHED');
    expect(matched.expected.trade_record_count).toBe(3);
  });
});

describe('a close that counts the tax and tip of a VOID', () => {
  it("names the non-revenue share of the close's tax and tip, and the figures to send", async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    const batch = tradeBatch();
    // The third fixture sale becomes a VOID (source code 09): its tax 1.15 and tip 2.00 are not revenue.
    const records = batch.trade_records.map((record, i) => (i === 2 ? { ...record, source_transaction_type: '09' } : record));
    expect((await service.call(partner, 'POST', 'trade-records', { ...batch, trade_records: records })).status).toBe(202);
    // A close that counts every transaction's tax and tip, and the revenue ones' net sales.
    expect((await sendClose(partner, { ...close(), net_sales_amount: '25.94' })).status).toBe(202);
    const result = await reconciled(service, partner, usdStore, fixtureBusinessDate);
    expect(result.status).toBe('MISMATCHED');
    expect(result.differences).toEqual(['tax_amount', 'tip_amount']);
    expect(result.actual).toMatchObject({ tax_amount: '2.30', tip_amount: '4.00', net_sales_amount: '25.94' });
    expect(result.diagnosis.hints).toEqual([
      "The daily close's tax_amount 3.45 and tip_amount 6.00 include 1.15 of tax and 2.00 of tip on transactions whose standard type is not revenue (a VOID, a DEPOSIT, a GIFT_CARD_SALE): tax_amount and tip_amount count revenue transactions only. Resend the daily close with tax_amount 2.30 and tip_amount 4.00, under a new batch_id.",
    ]);
  });
});

describe('GET /daily-close while reconciliation has not run', () => {
  let slow: TestService;
  beforeAll(async () => {
    slow = await startTestService({ settings: { RECONCILE_DELAY_SECONDS: '600' } });
  });
  afterAll(async () => {
    await slow.stop();
  });

  it('answers RECEIVED with the control totals right after a close', async () => {
    const partner = await slow.createPartner({ stores: [usdStore] });
    const body = close();
    expect((await slow.call(partner, 'POST', 'daily-close', body)).status).toBe(202);
    const response = await slow.call(partner, 'GET', `daily-close/${usdStore}/${fixtureBusinessDate}`);
    expect(response.status).toBe(200);
    const result = reconciliationOf(response);
    expect(Object.keys(result).sort()).toEqual(resultFields);
    expect(result).toMatchObject({
      store_id: usdStore,
      business_date: fixtureBusinessDate,
      status: 'RECEIVED',
      checked_at: null,
      actual: null,
      differences: [],
    });
    expect(result.expected).toEqual({
      trade_record_count: body.trade_record_count,
      item_row_count: body.item_row_count,
      payment_row_count: body.payment_row_count,
      net_sales_amount: body.net_sales_amount,
      tax_amount: body.tax_amount,
      tip_amount: body.tip_amount,
      payment_total_amount: body.payment_total_amount,
    });
  });
});
