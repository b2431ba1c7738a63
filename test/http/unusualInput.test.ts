/**
 * Input real POS systems and attackers send, each through real HTTP and storage: the answer is a
 * clean refusal with the path of the field (or a clean acceptance), never a 5xx, a stuck or a
 * half-applied batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchLedger } from '../../src/storage/BatchLedger.js';
import { ProductIdRepository } from '../../src/storage/ProductIdRepository.js';
import { TradeRecordIndex } from '../../src/storage/TradeRecordIndex.js';
import { buildDayBatch, sendClose, unmappedDayClose } from '../reliability/support/dayScenario.js';
import { seededRandom } from '../reliability/support/random.js';
import { buildMappingBatch, buildProductBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { eventually, startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { buildDailyClose } from '../fixtures/masterDataFixtures.js';
import { expectInvalid, newBatchId, partnerWithStores, reconciled, tradeBatch, usdStore, warningCodes } from '../support/httpScenario.js';
import { ackOf, errorOf, reconciliationOf, type TestResponse } from '../support/responseBodies.js';

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

/** The message of the detail at `path` of an error answer. */
function messageAt(response: TestResponse, path: string): string | undefined {
  return errorOf(response).details?.find((d) => d.path === path)?.message;
}

async function ledgerHas(batchId: string): Promise<boolean> {
  return (await new BatchLedger(service.services.storage.tables.batchLedger).get(partner.partnerId, batchId)) !== undefined;
}

describe('identifiers', () => {
  it('line and paragraph separators, controls, bidirectional controls and whitespace at an end are refused with the path, and nothing is stored', async () => {
    const bad = ['T\u2028-1', 'T\u2029-1', 'T\u0085-1', 'T\u0001-1', 'T\u202e-1', 'T\u2067-1', 'T\u200b-1', ' T-1', 'T-1 ', '\u3000', ''];
    for (const id of bad) {
      const batch = tradeBatch();
      batch.trade_records[1]!.trade_record_id = id;
      const response = await service.call(partner, 'POST', 'trade-records', batch);
      expectInvalid(response, '/trade_records/1/trade_record_id');
      expect(await ledgerHas(batch.batch_id)).toBe(false);
    }
    const stores = { batch_id: newBatchId(), stores: [{ ...buildUsdStore(usdStore), store_id: 'NYC\u2028-0001' }] };
    expectInvalid(await service.call(partner, 'PUT', 'stores', stores), '/stores/0/store_id');
    const products = { ...buildProductBatch(), batch_id: newBatchId() };
    products.products[2]!.product_id = 'P\u2029X';
    products.modifier_groups![0]!.group_id = 'MG ';
    const refused = await service.call(partner, 'PUT', 'products', products);
    expectInvalid(refused, '/products/2/product_id');
    expectInvalid(refused, '/modifier_groups/0/group_id');
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
      expectInvalid(refused, '/business_date');
      expect(messageAt(refused, '/business_date')).toContain('2026-03-04');
    }
    const close = { ...buildDailyClose('USD'), batch_id: newBatchId(), business_date: '0000-01-01' };
    expectInvalid(await service.call(partner, 'POST', 'daily-close', close), '/business_date');
    const later = { ...buildDailyClose('USD'), batch_id: newBatchId(), business_date: '2026-03-04' };
    expect((await service.call(partner, 'POST', 'daily-close', later)).status).toBe(202);
  });
});

describe('array sizes', () => {
  it('a record with 600 payments is refused at validation with the path, before anything is stored', async () => {
    const batch = tradeBatch();
    const template = batch.trade_records[0]!.payments[0]!;
    batch.trade_records[0]!.payments = Array.from({ length: 600 }, (_, i) => ({
      ...template,
      payment_id: `P-600-${i}`,
      payment_type: 'X'.repeat(50),
    }));
    const response = await service.call(partner, 'POST', 'trade-records', batch);
    expectInvalid(response, '/trade_records/0/payments');
    expect(messageAt(response, '/trade_records/0/payments')).toBe('must hold at most 50 items');
    expect(await ledgerHas(batch.batch_id)).toBe(false);
  });

  it('a modifier group larger than a stored row (1 MiB) is refused at validation with its path, before anything is stored', async () => {
    const products = { ...buildProductBatch(), batch_id: newBatchId() };
    const locales = [
      'en-US',
      'en-GB',
      'fr-FR',
      'de-DE',
      'es-ES',
      'it-IT',
      'ja-JP',
      'zh-TW',
      'zh-CN',
      'ko-KR',
      'pt-BR',
      'nl-NL',
      'sv-SE',
      'da-DK',
      'fi-FI',
      'pl-PL',
      'cs-CZ',
      'hu-HU',
      'tr-TR',
      'el-GR',
    ];
    const names = Object.fromEntries(locales.map((locale) => [locale, 'n'.repeat(500)]));
    products.modifier_groups![1]!.options = Array.from({ length: 100 }, (_, i) => ({
      option_id: `O-${i}`,
      name: names,
      price_delta: '0.00',
    }));
    const response = await service.call(partner, 'PUT', 'products', products);
    expectInvalid(response, '/modifier_groups/1');
    expect(messageAt(response, '/modifier_groups/1')).toMatch(
      /^is too large to store: it would take \d+\.\d+ MiB as stored, at most 1\.00 MiB/,
    );
    expect(await ledgerHas(products.batch_id)).toBe(false);
  });

  it('the largest record the limits allow (50 payments of 50-character non-ASCII payment types, 500 items) is stored and reconciles', async () => {
    const random = seededRandom(2030);
    const owner = await partnerWithStores(service, { mapping: true });
    const types = Array.from({ length: 50 }, (_, i) => `${'支払'.repeat(24)}${String(i).padStart(2, '0')}`);
    for (const type of types) expect((await service.hq('payment-type', 'set-direction', owner.partnerId, type, '1')).code).toBe(0);
    const businessDate = '2026-02-22';
    const batch = buildDayBatch(random, usdStore, businessDate, 3, 'big');
    const record = batch.trade_records[1]!;
    const template = record.payments[0]!;
    record.payments = types.map((type, i) => ({ ...template, payment_id: `P-BIG-${i}`, payment_type: type, amount: '1.00' }));
    const item = record.items[4]!;
    record.items = [
      ...record.items,
      ...Array.from({ length: 495 }, (_, i) => ({ ...item, line_no: 6 + i, quantity: '0', line_amount: '0.00', discount_amount: '0.00' })),
    ];
    const response = await service.call(owner, 'POST', 'trade-records', batch);
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(202);
    expect(warningCodes(response)).not.toContain('UNKNOWN_PAYMENT_TYPE');
    await sendClose(service, owner, random, usdStore, businessDate, batch.trade_records);
    const result = await reconciled(service, owner, usdStore, businessDate);
    expect(result.actual.payment_row_count).toBe(54);
    expect(result.actual.item_row_count).toBe(510);
    expect(result.status).toBe('MATCHED');
  });
});

async function indexedIds(who: TestPartner, storeId: string, businessDate: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const row of new TradeRecordIndex(service.services.storage.tables.tradeRecords).listDay(
    who.partnerId,
    storeId,
    businessDate,
  )) {
    if (row.type === 'transaction') ids.push(row.summary.trade_record_id);
  }
  return ids;
}

describe('multi-byte identifiers', () => {
  it('128 characters of any script fit every key: a 250-record batch with such ids, store and product is stored whole and reconciles', async () => {
    const random = seededRandom(2028);
    const longStore = '漢'.repeat(128);
    const owner = await service.createPartner({ stores: [longStore] });
    const putStores = await service.call(owner, 'PUT', 'stores', { batch_id: newBatchId(), stores: [buildUsdStore(longStore)] });
    expect(putStores.status, JSON.stringify(putStores.body)).toBe(202);
    expect(
      (await service.call(owner, 'PUT', 'mappings/transaction-types', { ...buildMappingBatch(), batch_id: newBatchId() })).status,
    ).toBe(202);
    const products = { ...buildProductBatch(), batch_id: newBatchId() };
    products.products[0]!.product_id = '漢'.repeat(128);
    for (const product of products.products) if (product.store_id) product.store_id = longStore;
    products.products[0]!.store_id = longStore;
    products.modifier_groups![0]!.group_id = '漢'.repeat(128);
    expect((await service.call(owner, 'PUT', 'products', products)).status).toBe(202);
    const known = await new ProductIdRepository(service.services.storage.tables.productIds).list(owner.partnerId);
    expect(known.has('漢'.repeat(128))).toBe(true);

    const businessDate = '2026-02-20';
    const batch = buildDayBatch(random, longStore, businessDate, 250, 'mb');
    const longIds = ['é'.repeat(100), 'é'.repeat(128), '漢'.repeat(128), '😀'.repeat(128), `${'/'.repeat(127)}#`];
    longIds.forEach((id, i) => (batch.trade_records[10 + 50 * i]!.trade_record_id = id));
    batch.trade_records[7]!.items[0]!.product_id = '漢'.repeat(128);
    const first = await service.call(owner, 'POST', 'trade-records', batch);
    expect(first.status).toBe(202);
    expect(ackOf(await service.call(owner, 'POST', 'trade-records', batch)).status).toBe('ALREADY_RECEIVED');

    const ids = await indexedIds(owner, longStore, businessDate);
    expect(ids).toHaveLength(250);
    expect(ids).toEqual(expect.arrayContaining(longIds));

    // A newer version of a long-id transaction replaces the stored one (read, compare, write by ETag).
    const newer = { ...batch, batch_id: newBatchId(), batch_seq: 2, trade_records: [{ ...batch.trade_records[160]!, version: 2 }] };
    const update = await service.call(owner, 'POST', 'trade-records', newer);
    expect(update.status).toBe(202);
    expect(warningCodes(update)).not.toContain('STALE_VERSION');

    await sendClose(service, owner, random, longStore, businessDate, batch.trade_records, 2);
    const result = await reconciled(service, owner, encodeURIComponent(longStore), businessDate);
    expect(result.status).toBe('MATCHED');
  });
});

describe('unmapped codes', () => {
  it('long non-ASCII unmapped codes never stop a reconciliation; mapping them later re-reconciles the day', async () => {
    const random = seededRandom(2029);
    const owner = await partnerWithStores(service, { mapping: true });
    const businessDate = '2026-02-21';
    const batch = buildDayBatch(random, usdStore, businessDate, 60, 'um');
    const codes = batch.trade_records.map(
      (record, i) => (record.source_transaction_type = i === 59 ? '😀'.repeat(128) : `${'漢'.repeat(126)}${i % 55}`),
    );
    expect((await service.call(owner, 'POST', 'trade-records', batch)).status).toBe(202);

    // Unmapped transactions are not revenue: the close says so.
    const close = unmappedDayClose(usdStore, businessDate, batch.trade_records, newBatchId());
    expect((await service.call(owner, 'POST', 'daily-close', close)).status).toBe(202);
    const first = await reconciled(service, owner, usdStore, businessDate);
    expect(first.status).toBe('MATCHED');
    expect(first.diagnosis.unmapped_transaction_types).toHaveLength(50);
    for (const entry of first.diagnosis.unmapped_transaction_types) expect(codes).toContain(entry.source_code);

    const mapping = { batch_id: newBatchId(), mappings: [...new Set(codes)].map((code) => ({ source_code: code, standard_code: 'SALE' })) };
    expect((await service.call(owner, 'PUT', 'mappings/transaction-types', mapping)).status).toBe(202);
    const again = await eventually(
      () => service.call(owner, 'GET', `daily-close/${usdStore}/${businessDate}`),
      (r) => r.status === 200 && reconciliationOf(r).status === 'MISMATCHED',
    );
    expect(reconciliationOf(again).status).toBe('MISMATCHED');
    expect(reconciliationOf(again).differences).toEqual(['net_sales_amount', 'tax_amount', 'tip_amount']);
  });
});
