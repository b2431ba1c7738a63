import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product, TradeRecord } from '../../src/domain/model/payloads.js';
import { buildDailyClose, buildJpyStore, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { buildUsdTaxExcludedRecord, fixtureBusinessDate } from '../fixtures/tradeRecordFixtures.js';
import { invokeInProcess, type EndpointCaller } from '../support/invokeInProcess.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { newBatchId, partnerWithStores, reconciled, usdStore, warningCodes } from '../support/httpScenario.js';
import { ackOf, errorPaths } from '../support/responseBodies.js';

// What the service decides, called in-process: HTTP is not under test here.
let service: TestService;
let call: EndpointCaller;
beforeAll(async () => {
  // Reconcile as soon as a daily close arrives.
  service = await startTestService({ settings: { RECONCILE_DELAY_SECONDS: '0' } });
  call = invokeInProcess(service.services);
});
afterAll(async () => {
  await service.stop();
});

/** One USD record; `payments` 1 drops the cash payment so the stored copy is visible in payment_row_count. */
function record(id: string, version: number, lastModifiedAt: string, payments: 1 | 2): TradeRecord {
  const r = buildUsdTaxExcludedRecord({ tradeRecordId: id, version, lastModifiedAt });
  return payments === 1 ? { ...r, payments: r.payments.slice(1) } : r;
}

let seq = 0;
async function pushRecords(partner: TestPartner, records: TradeRecord[]) {
  const body = { batch_id: newBatchId(), store_id: usdStore, business_date: fixtureBusinessDate, batch_seq: ++seq, trade_records: records };
  const response = await call(partner, 'POST', 'trade-records', body);
  expect(response.status).toBe(202);
  return response;
}

describe('trade records: highest version wins, then the later last_modified_at', () => {
  it('ignores older copies with STALE_VERSION and reconciles the newest copy of each transaction', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    // T-1: version 2 (one payment) arrives before version 1 (two payments).
    expect(warningCodes(await pushRecords(partner, [record('T-1', 2, '2026-03-01T12:30:00-05:00', 1)]))).not.toContain('STALE_VERSION');
    const older = await pushRecords(partner, [record('T-1', 1, '2026-03-01T12:40:00-05:00', 2)]);
    expect(ackOf(older).warnings).toContainEqual(expect.objectContaining({ code: 'STALE_VERSION', path: 'trade_records[0]' }));

    // T-2: equal versions; the later last_modified_at (one payment) wins whatever the order.
    await pushRecords(partner, [record('T-2', 1, '2026-03-01T12:00:00-05:00', 2)]);
    const later = await pushRecords(partner, [record('T-2', 1, '2026-03-01T12:05:00-05:00', 1)]);
    expect(warningCodes(later)).not.toContain('STALE_VERSION');
    const earlier = await pushRecords(partner, [record('T-2', 1, '2026-03-01T11:59:00-05:00', 2)]);
    expect(ackOf(earlier).warnings).toContainEqual(expect.objectContaining({ code: 'STALE_VERSION', path: 'trade_records[0]' }));
    // The same instant written with another offset is the same copy: a replay, not stale.
    const replay = await pushRecords(partner, [record('T-2', 1, '2026-03-01T17:05:00Z', 1)]);
    expect(warningCodes(replay)).not.toContain('STALE_VERSION');
    // A change sent under the stored stamp (two payments again) is not applied, and the partner is told.
    const unstamped = await pushRecords(partner, [record('T-2', 1, '2026-03-01T12:05:00-05:00', 2)]);
    expect(ackOf(unstamped).warnings).toContainEqual({
      code: 'STALE_VERSION',
      path: 'trade_records[0]',
      message: expect.stringContaining('same version and last_modified_at but other content') as string,
    });

    const close = { ...buildDailyClose('USD'), batch_id: newBatchId(), trade_record_count: 2, item_row_count: 10, payment_row_count: 2 };
    expect((await call(partner, 'POST', 'daily-close', close)).status).toBe(202);
    const result = await reconciled(service, partner, usdStore, fixtureBusinessDate);
    expect(result.actual).toMatchObject({ trade_record_count: 2, item_row_count: 10, payment_row_count: 2 });
  });

  it('tells a change under the stored stamp that moves no figure (another product, an employee) from a retry', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    const first = record('T-3', 1, '2026-03-01T12:00:00-05:00', 2);
    await pushRecords(partner, [first]);
    // The same transaction with its fields in another order, and its stamp in another offset: a retry.
    const reordered = Object.fromEntries(
      Object.entries({ ...first, last_modified_at: '2026-03-01T17:00:00Z' }).reverse(),
    ) as unknown as TradeRecord;
    expect(warningCodes(await pushRecords(partner, [reordered]))).not.toContain('STALE_VERSION');
    // Another product and an employee, every figure the same: not applied, and the partner is told.
    const items = first.items.map((item, i) => (i === 0 ? { ...item, product_id: 'P-OTHER', product_name: 'Other' } : item));
    const changed = await pushRecords(partner, [{ ...first, items, employee_id: 'E-9' }]);
    expect(ackOf(changed).warnings).toContainEqual({
      code: 'STALE_VERSION',
      path: 'trade_records[0]',
      message: expect.stringContaining('same version and last_modified_at but other content') as string,
    });
  });
});

describe('products: the version rule', () => {
  function product(version: number, lastModifiedAt: string, storeId?: string): Product {
    return {
      product_id: 'P-VERSIONED',
      ...(storeId ? { store_id: storeId } : {}),
      name: { 'en-US': 'Versioned' },
      unit_price: '3.00',
      currency: 'USD',
      status: 'ACTIVE',
      version,
      last_modified_at: lastModifiedAt,
      product_type: 'SINGLE',
    };
  }
  async function putProducts(partner: TestPartner, products: Product[]) {
    const response = await call(partner, 'PUT', 'products', { batch_id: newBatchId(), products });
    expect(response.status).toBe(202);
    return ackOf(response);
  }

  it('warns STALE_VERSION for an older version or an equal version modified earlier', async () => {
    const partner = await partnerWithStores(service);
    expect((await putProducts(partner, [product(2, '2026-02-25T08:00:00Z')])).warnings).toEqual([]);
    const older = await putProducts(partner, [product(3, '2026-02-25T09:00:00Z', usdStore), product(1, '2026-02-26T08:00:00Z')]);
    // The store-specific copy is a different product; only the shared version 1 is stale.
    expect(older.warnings).toEqual([expect.objectContaining({ code: 'STALE_VERSION', path: 'products[1]' })]);
    expect((await putProducts(partner, [product(2, '2026-02-25T08:30:00Z')])).warnings).toEqual([]);
    const earlier = await putProducts(partner, [product(2, '2026-02-25T08:10:00Z')]);
    expect(earlier.warnings).toEqual([expect.objectContaining({ code: 'STALE_VERSION', path: 'products[0]' })]);
    expect((await putProducts(partner, [product(3, '2026-02-20T00:00:00Z')])).warnings).toEqual([]);
  });

  it('takes a first version of 0, and version 1 as its change', async () => {
    const partner = await partnerWithStores(service);
    expect((await putProducts(partner, [product(0, '2026-02-25T08:00:00Z')])).warnings).toEqual([]);
    expect((await putProducts(partner, [product(1, '2026-02-25T09:00:00Z')])).warnings).toEqual([]);
    const again = await putProducts(partner, [product(0, '2026-02-26T08:00:00Z')]);
    expect(again.warnings).toEqual([expect.objectContaining({ code: 'STALE_VERSION', path: 'products[0]' })]);
  });

  it('keeps the stored product when a copy under its version and last_modified_at says something else, and says so', async () => {
    const partner = await partnerWithStores(service);
    await putProducts(partner, [product(4, '2026-02-25T08:00:00Z')]);
    // The same product again, its stamp written in another offset: a replay, silent.
    expect((await putProducts(partner, [product(4, '2026-02-25T17:00:00+09:00')])).warnings).toEqual([]);
    const repriced = await putProducts(partner, [{ ...product(4, '2026-02-25T08:00:00Z'), unit_price: '3.50' }]);
    expect(repriced.warnings).toEqual([
      expect.objectContaining({ code: 'STALE_VERSION', path: 'products[0]', message: expect.stringContaining('version + 1') as unknown }),
    ]);
    expect((await putProducts(partner, [{ ...product(5, '2026-02-25T08:00:00Z'), unit_price: '3.50' }])).warnings).toEqual([]);
  });
});

describe('stores: the later last_modified_at wins', () => {
  it('keeps the newer store copy, which decides the currency transactions must use', async () => {
    const partner = await partnerWithStores(service);
    const usdRecords = () => ({
      batch_id: newBatchId(),
      store_id: usdStore,
      business_date: fixtureBusinessDate,
      batch_seq: 1,
      trade_records: [buildUsdTaxExcludedRecord()],
    });
    // A copy modified before the stored one: ignored with STALE_VERSION, the store stays USD.
    const stale = { ...buildJpyStore(usdStore), last_modified_at: '2026-02-01T00:00:00Z' };
    const staleAck = await call(partner, 'PUT', 'stores', { batch_id: newBatchId(), stores: [stale] });
    expect(staleAck.status).toBe(202);
    expect(ackOf(staleAck).warnings).toEqual([expect.objectContaining({ code: 'STALE_VERSION', path: 'stores[0]' })]);
    expect((await call(partner, 'POST', 'trade-records', usdRecords())).status).toBe(202);

    // A later copy switches the store to JPY: USD transactions are now refused.
    const newer = { ...buildJpyStore(usdStore), last_modified_at: '2026-03-05T00:00:00Z' };
    const newerAck = await call(partner, 'PUT', 'stores', { batch_id: newBatchId(), stores: [newer] });
    expect(newerAck.status).toBe(202);
    expect(ackOf(newerAck).warnings).toEqual([]);
    const refused = await call(partner, 'POST', 'trade-records', usdRecords());
    expect(refused.status).toBe(400);
    expect(errorPaths(refused)).toContain('/trade_records/0/currency');
  });

  it('applies a copy sent with the stored last_modified_at: a correction that did not move the timestamp is not dropped', async () => {
    const partner = await partnerWithStores(service);
    const stored = buildUsdStore(usdStore);
    const corrected = { ...buildJpyStore(usdStore), last_modified_at: stored.last_modified_at };
    const ack = await call(partner, 'PUT', 'stores', { batch_id: newBatchId(), stores: [corrected] });
    expect(ack.status).toBe(202);
    expect(ackOf(ack).warnings).toEqual([]);
    // The store is JPY now: a USD transaction is refused for its currency.
    const usd = {
      batch_id: newBatchId(),
      store_id: usdStore,
      business_date: fixtureBusinessDate,
      batch_seq: 1,
      trade_records: [buildUsdTaxExcludedRecord()],
    };
    const refused = await call(partner, 'POST', 'trade-records', usd);
    expect(refused.status).toBe(400);
    expect(errorPaths(refused)).toContain('/trade_records/0/currency');
  });
});
