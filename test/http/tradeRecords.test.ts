import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDailyClose, buildProductBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import type { ProductBatch } from '../../src/domain/model/payloads.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { expectInvalid, newBatchId, partnerWithStores, tradeBatch, usdStore, warningCodes } from '../support/httpScenario.js';
import { withValueAt, withoutValueAt } from '../support/jsonEdits.js';
import { ackOf, errorOf, errorPaths } from '../support/responseBodies.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

async function push(partner: TestPartner, body: unknown) {
  return service.call(partner, 'POST', 'trade-records', body);
}

/** Product data for every product_id the USD fixture records sell. */
function fullProductBatch(): ProductBatch {
  const batch = buildProductBatch();
  type Product = ProductBatch['products'][number];
  const extra = (product_id: string, product_type: Product['product_type'], unit_price: string): Product => ({
    product_id,
    name: { 'en-US': product_id },
    unit_price,
    currency: 'USD',
    status: 'ACTIVE',
    version: 1,
    last_modified_at: '2026-02-25T08:00:00-05:00',
    product_type,
  });
  batch.products.push(extra('P-COLA-L', 'DRINK', '2.49'), extra('P-APPLE-PIE', 'SINGLE', '1.99'));
  batch.batch_id = newBatchId();
  return batch;
}

describe('POST /trade-records acceptance', () => {
  it('answers 202 ACCEPTED with record_count = transactions, then 200 ALREADY_RECEIVED with the same receipt', async () => {
    const partner = await partnerWithStores(service);
    const batch = tradeBatch({ recordCount: 4 });
    const first = await push(partner, batch);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ batch_id: batch.batch_id, status: 'ACCEPTED', record_count: 4 });
    expect(ackOf(first).warnings.length).toBeGreaterThan(0); // no mapping, no products yet
    const again = await push(partner, batch);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...ackOf(first), status: 'ALREADY_RECEIVED' });
  });

  it('treats the same batch_id in upper case as a repeat, not a second batch', async () => {
    const partner = await partnerWithStores(service);
    const batch = tradeBatch({ recordCount: 2 });
    expect((await push(partner, batch)).status).toBe(202);
    const upper = { ...tradeBatch({ recordCount: 3 }), batch_id: batch.batch_id.toUpperCase() };
    const again = await push(partner, upper);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ batch_id: upper.batch_id, status: 'ALREADY_RECEIVED', record_count: 2 });
  });

  it('answers with no warnings when mapping, products and amounts are all in order', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    expect((await service.call(partner, 'PUT', 'products', fullProductBatch())).status).toBe(202);
    const response = await push(partner, tradeBatch());
    expect(response.status).toBe(202);
    expect(ackOf(response).warnings).toEqual([]);
  });

  it('accepts exactly 500 records and refuses 501 with BATCH_TOO_LARGE', async () => {
    const partner = await partnerWithStores(service);
    const full = await push(partner, tradeBatch({ recordCount: 500 }));
    expect(full.status).toBe(202);
    expect(ackOf(full).record_count).toBe(500);
    const over = await push(partner, tradeBatch({ recordCount: 501 }));
    expect(over.status).toBe(400);
    expect(errorOf(over).code).toBe('BATCH_TOO_LARGE');
  });

  it('refuses an empty trade_records array', async () => {
    const partner = await partnerWithStores(service);
    const response = await push(partner, { ...tradeBatch(), trade_records: [] });
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('INVALID_PAYLOAD');
  });
});

describe('POST /trade-records INVALID_PAYLOAD', () => {
  it('rejects a wrong type', async () => {
    const partner = await partnerWithStores(service);
    expectInvalid(await push(partner, withValueAt(tradeBatch(), '/trade_records/1/guest_count', 'two')), '/trade_records/1/guest_count');
  });

  it('rejects a missing required field', async () => {
    const partner = await partnerWithStores(service);
    const response = await push(partner, withoutValueAt(tradeBatch(), '/trade_records/0/items'));
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('INVALID_PAYLOAD');
    expect(errorPaths(response).some((path) => path.startsWith('/trade_records/0'))).toBe(true);
  });

  it('rejects a missing batch field', async () => {
    const partner = await partnerWithStores(service);
    const response = await push(partner, withoutValueAt(tradeBatch(), '/batch_seq'));
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('INVALID_PAYLOAD');
  });

  it('rejects a bad enum value', async () => {
    const partner = await partnerWithStores(service);
    expectInvalid(await push(partner, withValueAt(tradeBatch(), '/trade_records/2/status', 'FINISHED')), '/trade_records/2/status');
  });

  it('rejects bad formats: batch_id, business_date, timestamp and decimal string', async () => {
    const partner = await partnerWithStores(service);
    const badUuid = tradeBatch();
    badUuid.batch_id = 'batch-42';
    expectInvalid(await push(partner, badUuid), '/batch_id');

    const badTime = tradeBatch();
    badTime.trade_records[0]!.opened_at = '01/03/2026 11:00';
    expectInvalid(await push(partner, badTime), '/trade_records/0/opened_at');

    const badDecimal = tradeBatch();
    badDecimal.trade_records[0]!.items[0]!.quantity = 'one';
    expectInvalid(await push(partner, badDecimal), '/trade_records/0/items/0/quantity');

    const badDate = tradeBatch({ businessDate: '2026/03/01' });
    const response = await push(partner, badDate);
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('INVALID_PAYLOAD');
  });

  it('rejects USD amounts without exactly 2 decimal places', async () => {
    const partner = await partnerWithStores(service);
    const one = tradeBatch();
    one.trade_records[0]!.tip_amount = '2.0';
    expectInvalid(await push(partner, one), '/trade_records/0/tip_amount');
    const three = tradeBatch();
    three.trade_records[1]!.payments[0]!.amount = '5.000';
    expectInvalid(await push(partner, three), '/trade_records/1/payments/0/amount');
    const none = tradeBatch();
    none.trade_records[0]!.items[4]!.unit_price = '2';
    expectInvalid(await push(partner, none), '/trade_records/0/items/4/unit_price');
  });

  it('rejects JPY amounts with decimal places', async () => {
    const partner = await partnerWithStores(service);
    const batch = tradeBatch({ currency: 'JPY' });
    expect((await push(partner, batch)).status).toBe(202);
    const bad = tradeBatch({ currency: 'JPY' });
    bad.trade_records[0]!.total_amount = `${bad.trade_records[0]!.total_amount}.00`;
    expectInvalid(await push(partner, bad), '/trade_records/0/total_amount');
  });

  it("rejects a record whose store_id or business_date differs from the batch's", async () => {
    const partner = await partnerWithStores(service);
    const otherStore = tradeBatch();
    otherStore.trade_records[1]!.store_id = 'TYO-0001';
    expectInvalid(await push(partner, otherStore), '/trade_records/1/store_id');
    const otherDate = tradeBatch();
    otherDate.trade_records[2]!.business_date = '2026-03-02';
    expectInvalid(await push(partner, otherDate), '/trade_records/2/business_date');
  });

  it("rejects records whose currency differs from the store's", async () => {
    const partner = await partnerWithStores(service);
    // JPY records (0 decimal places, valid for JPY) sent for the USD store.
    const batch = tradeBatch({ currency: 'JPY', storeId: usdStore });
    expectInvalid(await push(partner, batch), '/trade_records/0/currency');
  });

  it('does not apply a rejected batch: its batch_id is still free afterwards', async () => {
    const partner = await partnerWithStores(service);
    const batch = tradeBatch();
    const bad = withValueAt(batch, '/trade_records/0/status', 'FINISHED');
    expect((await push(partner, bad)).status).toBe(400);
    const good = await push(partner, batch);
    expect(good.status).toBe(202);
    expect(ackOf(good).status).toBe('ACCEPTED');
  });
});

describe('POST /trade-records STORE_NOT_ALLOWED', () => {
  it('refuses a store not registered for the partner', async () => {
    const partner = await partnerWithStores(service);
    const response = await push(partner, tradeBatch({ storeId: 'LAX-0404' }));
    expect(response.status).toBe(403);
    expect(errorOf(response).code).toBe('STORE_NOT_ALLOWED');
    expect(errorOf(response).details).toEqual([{ path: '/store_id', message: 'is not a store registered for this partner' }]);
  });
});

describe('POST /trade-records warnings (never a rejection)', () => {
  it('AMOUNT_MISMATCH names the record as trade_records[i]', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    const batch = tradeBatch();
    batch.trade_records[1]!.total_amount = '999.99';
    const response = await push(partner, batch);
    expect(response.status).toBe(202);
    const mismatches = ackOf(response).warnings.filter((w) => w.code === 'AMOUNT_MISMATCH');
    expect(mismatches.map((w) => w.path)).toEqual(['trade_records[1]']);
    for (const warning of ackOf(response).warnings) {
      expect(Object.keys(warning).sort()).toEqual(['code', 'message', 'path']);
      expect(warning.message.length).toBeGreaterThan(0);
    }
  });

  it('AMOUNT_MISMATCH follows prices_include_tax (tax not added when included)', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    const batch = tradeBatch();
    // The USD record excludes tax; claiming it includes tax breaks its identity.
    batch.trade_records[0]!.prices_include_tax = true;
    const response = await push(partner, batch);
    expect(response.status).toBe(202);
    expect(ackOf(response).warnings).toContainEqual(expect.objectContaining({ code: 'AMOUNT_MISMATCH', path: 'trade_records[0]' }));
    const jpy = await push(partner, tradeBatch({ currency: 'JPY' }));
    expect(warningCodes(jpy)).not.toContain('AMOUNT_MISMATCH');
  });

  it('STORE_NOT_UPLOADED while HQ has no master data for the store, whose currency then goes unchecked', async () => {
    const partner = await service.createPartner({ stores: [usdStore] });
    const before = await push(partner, tradeBatch());
    expect(before.status).toBe(202);
    expect(ackOf(before).warnings).toContainEqual(expect.objectContaining({ code: 'STORE_NOT_UPLOADED', path: 'store_id' }));
    expect((await service.call(partner, 'PUT', 'stores', { batch_id: newBatchId(), stores: [buildUsdStore(usdStore)] })).status).toBe(202);
    expect(warningCodes(await push(partner, tradeBatch()))).not.toContain('STORE_NOT_UPLOADED');
  });

  it('UNKNOWN_PRODUCT until product data arrives', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    const before = await push(partner, tradeBatch({ recordCount: 2 }));
    expect(before.status).toBe(202);
    expect(
      ackOf(before)
        .warnings.filter((w) => w.code === 'UNKNOWN_PRODUCT')
        .map((w) => w.path),
    ).toEqual(['trade_records[0]', 'trade_records[1]']);
    expect((await service.call(partner, 'PUT', 'products', fullProductBatch())).status).toBe(202);
    const batch = tradeBatch({ recordCount: 2 });
    for (const record of batch.trade_records) {
      record.trade_record_id += '-B';
      for (const payment of record.payments) payment.payment_id += '-B';
    }
    const after = await push(partner, batch);
    expect(warningCodes(after)).not.toContain('UNKNOWN_PRODUCT');
  });

  it('UNMAPPED_TRANSACTION_TYPE for a code outside the mapping', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    const batch = tradeBatch();
    batch.trade_records[2]!.source_transaction_type = 'ZZ-UNMAPPED';
    const response = await push(partner, batch);
    expect(response.status).toBe(202);
    const unmapped = ackOf(response).warnings.filter((w) => w.code === 'UNMAPPED_TRANSACTION_TYPE');
    expect(unmapped.map((w) => w.path)).toEqual(['trade_records[2]']);
  });

  it('UNKNOWN_PAYMENT_TYPE for a custom payment_type', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    const batch = tradeBatch();
    batch.trade_records[0]!.payments[0]!.payment_type = 'STAFF_MEAL_VOUCHER';
    const response = await push(partner, batch);
    expect(response.status).toBe(202);
    const unknown = ackOf(response).warnings.filter((w) => w.code === 'UNKNOWN_PAYMENT_TYPE');
    expect(unknown.map((w) => w.path)).toEqual(['trade_records[0]']);
  });

  it('STALE_VERSION when an older version of a transaction arrives later', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    const v2 = tradeBatch({ recordCount: 1 });
    v2.trade_records[0]!.version = 2;
    expect(warningCodes(await push(partner, v2))).not.toContain('STALE_VERSION');
    const v1 = tradeBatch({ recordCount: 1 });
    const response = await push(partner, v1);
    expect(response.status).toBe(202);
    expect(ackOf(response).warnings).toContainEqual(expect.objectContaining({ code: 'STALE_VERSION', path: 'trade_records[0]' }));
  });

  it('DAY_ALREADY_CLOSED for transactions of a store-day whose daily close was received', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    expect(warningCodes(await push(partner, tradeBatch()))).not.toContain('DAY_ALREADY_CLOSED');
    const close = { ...buildDailyClose('USD'), batch_id: newBatchId() };
    expect((await service.call(partner, 'POST', 'daily-close', close)).status).toBe(202);
    const late = tradeBatch({ batchSeq: 2 });
    late.trade_records[0]!.version = 2;
    const response = await push(partner, late);
    expect(response.status).toBe(202);
    expect(warningCodes(response)).toContain('DAY_ALREADY_CLOSED');
    const otherDay = await push(partner, tradeBatch({ businessDate: '2026-03-02' }));
    expect(warningCodes(otherDay)).not.toContain('DAY_ALREADY_CLOSED');
  });

  it('no BATCH_ID_REUSED for the same content written otherwise: keys reordered, spacing, the batch_id in upper case', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    const first = tradeBatch({ recordCount: 2 });
    const ack = await push(partner, first);
    expect(ack.status).toBe(202);
    const { trade_records, ...head } = first;
    const rewritten = [
      JSON.stringify({ trade_records: trade_records.map((r) => Object.fromEntries(Object.entries(r).reverse())), ...head }, null, 2),
      JSON.stringify({ ...first, batch_id: first.batch_id.toUpperCase() }),
    ];
    for (const body of rewritten) {
      const repeat = await service.call(partner, 'POST', 'trade-records', body);
      expect(repeat.status).toBe(200);
      // The batch_id echoed as this request sent it.
      const sentId = (JSON.parse(body) as { batch_id: string }).batch_id;
      expect(ackOf(repeat)).toEqual({ ...ackOf(ack), batch_id: sentId, status: 'ALREADY_RECEIVED' });
    }
    // One changed figure is other content.
    const changed = structuredClone(first);
    changed.trade_records[1]!.version += 1;
    expect(warningCodes(await push(partner, changed))).toContain('BATCH_ID_REUSED');
  });

  it('BATCH_ID_REUSED when a batch_id comes back with another body, which is not applied', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    const first = tradeBatch({ recordCount: 2 });
    const ack = await push(partner, first);
    expect(ack.status).toBe(202);
    const other = tradeBatch({ recordCount: 3, batchId: first.batch_id });
    other.trade_records[0]!.version = 5;
    const repeat = await push(partner, other);
    expect(repeat.status).toBe(200);
    expect(ackOf(repeat).status).toBe('ALREADY_RECEIVED');
    expect(ackOf(repeat).record_count).toBe(2);
    expect(ackOf(repeat).warnings).toEqual([...ackOf(ack).warnings, expect.objectContaining({ code: 'BATCH_ID_REUSED' })]);
    // Version 5 was not applied: version 2 of the same transaction is still newer than what is stored.
    const v2 = tradeBatch({ recordCount: 1 });
    v2.trade_records[0]!.version = 2;
    expect(warningCodes(await push(partner, v2))).not.toContain('STALE_VERSION');
  });
});
