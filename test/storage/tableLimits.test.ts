import { describe, expect, it } from 'vitest';
import type { ModifierGroup, Product } from '../../src/domain/model/payloads.js';
import { summarizeTradeRecord } from '../../src/domain/reconciliation/TradeRecordSummary.js';
import type { Warning } from '../../src/domain/model/Warning.js';
import { BatchLedger } from '../../src/storage/BatchLedger.js';
import { toCompactProperties } from '../../src/storage/chunkedJson.js';
import { ProductRepository } from '../../src/storage/ProductRepository.js';
import { createStorageClients, ensureStorage } from '../../src/storage/StorageClients.js';
import { entityProblems, entitySize } from '../../src/storage/tableLimits.js';
import { TradeRecordIndex } from '../../src/storage/TradeRecordIndex.js';
import { buildUsdTaxExcludedRecord } from '../fixtures/tradeRecordFixtures.js';
import { stringMatching } from '../support/matchers.js';
import { azuriteConfig } from '../support/azuriteConfig.js';

const storage = createStorageClients(azuriteConfig());

/** The longest text a localized value may hold, in the characters that cost most as stored. */
const longestText = '😀'.repeat(500);
const longestId = '😀'.repeat(128);
const fullLocales = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-${String(i).padStart(8, '0')}`, longestText]));

describe('entityProblems', () => {
  it('names each limit a row would break', () => {
    expect(entityProblems({ partitionKey: 'p', rowKey: 'r', a: 'x'.repeat(32_768) })).toEqual([]);
    expect(entityProblems({ partitionKey: 'p', rowKey: 'r', a: 'x'.repeat(32_769) })).toEqual([
      { property: 'a', message: 'it would take 32769 characters, at most 32768 fit in one value' },
    ]);
    expect(entityProblems({ partitionKey: 'p'.repeat(513), rowKey: 'r' })[0]?.message).toMatch(/partitionKey would be longer than 512/);
    const many = Object.fromEntries(Array.from({ length: 253 }, (_, i) => [`p${i}`, 1]));
    expect(entityProblems({ partitionKey: 'p', rowKey: 'r', ...many })[0]?.message).toMatch(/253 properties/);
    const big = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`c${i}`, 'x'.repeat(30_000)]));
    expect(entityProblems({ partitionKey: 'p', rowKey: 'r', ...big })).toEqual([
      { message: stringMatching(/1\.1\d MiB as stored, at most 1\.00 MiB/) },
    ]);
    expect(entityProblems({ partitionKey: 'p', rowKey: 'r', b: new Uint8Array(64 * 1024 + 1) })[0]?.property).toBe('b');
  });

  it('counts strings in UTF-16 and the request in UTF-8, whichever is larger', () => {
    expect(entitySize({ a: 'x'.repeat(1000) })).toBeGreaterThanOrEqual(2000);
    expect(entitySize({ a: '漢'.repeat(1000) })).toBeGreaterThanOrEqual(3000);
  });
});

describe('the rows of the largest bodies the schemas allow', () => {
  it('an index row with 50 payments of 50 four-byte characters fits', () => {
    const record = buildUsdTaxExcludedRecord({ tradeRecordId: longestId });
    record.payments = Array.from({ length: 50 }, (_, i) => ({
      ...record.payments[0]!,
      payment_id: `P${i}`,
      payment_type: '😀'.repeat(50),
      amount: '9'.repeat(37) + '.00',
    }));
    record.source_transaction_type = longestId;
    const summary = summarizeTradeRecord(record, { batch_id: '00000000-0000-4000-8000-000000000000', batch_seq: 9_007_199_254_740_991 });
    expect(new TradeRecordIndex(storage.tables.tradeRecords).rowProblems('p-1', longestId, '2026-03-01', summary)).toEqual([]);
  });

  it('a product with 100 locales in each name, 50 modifier groups and 50 combo components fits', () => {
    const product: Product = {
      product_id: longestId,
      store_id: longestId,
      sku: longestId,
      name: fullLocales(100),
      category_id: longestId,
      category_name: fullLocales(100),
      unit_price: '9'.repeat(37) + '.00',
      currency: 'USD',
      tax_category: 'STANDARD',
      status: 'ACTIVE',
      effective_from: '2026-03-01T00:00:00.123456789+09:00',
      version: 9_007_199_254_740_991,
      last_modified_at: '2026-03-01T00:00:00.123456789+09:00',
      product_type: 'COMBO',
      modifier_group_ids: Array.from({ length: 50 }, () => longestId),
      combo_components: Array.from({ length: 50 }, () => ({
        product_id: longestId,
        quantity: '9'.repeat(40),
        is_substitutable: true,
        substitute_group_id: longestId,
      })),
    };
    const products = new ProductRepository(storage.tables.products, storage.tables.modifierGroups);
    expect(products.productProblems('p-1', product)).toEqual([]);
  });

  it('a modifier group can be larger than a row: it is caught by its own check', () => {
    const group: ModifierGroup = {
      group_id: 'MG',
      name: { 'en-US': 'x' },
      min_select: 0,
      max_select: 1,
      options: Array.from({ length: 100 }, (_, i) => ({ option_id: `O${i}`, name: fullLocales(20), price_delta: '0.00' })),
    };
    const products = new ProductRepository(storage.tables.products, storage.tables.modifierGroups);
    expect(products.modifierGroupProblems('p-1', group)).toEqual([{ message: stringMatching(/MiB as stored, at most 1\.00 MiB/) }]);
  });

  it('a receipt with five warnings on each of 500 records (and one for the day) fits in its ledger row, and reads back whole', async () => {
    await ensureStorage(storage);
    const message = 'x'.repeat(200);
    const warnings: Warning[] = [];
    for (let i = 0; i < 500; i++) {
      for (const code of [
        'AMOUNT_MISMATCH',
        'UNMAPPED_TRANSACTION_TYPE',
        'UNKNOWN_PRODUCT',
        'UNKNOWN_PAYMENT_TYPE',
        'STALE_VERSION',
      ] as const) {
        warnings.push({ code, path: `trade_records[${i}]`, message: `${message} ${i}` });
      }
    }
    warnings.push({ code: 'DAY_ALREADY_CLOSED', path: 'business_date', message });
    const row = {
      partitionKey: 'p',
      rowKey: 'r',
      state: 'COMMITTED',
      kind: 'tradeRecords',
      bodyHash: 'h'.repeat(64),
      createdAt: 'c',
      committedAt: 'c',
      recordCount: 500,
      ...toCompactProperties('warnings', warnings),
    };
    expect(entityProblems(row)).toEqual([]);

    const ledger = new BatchLedger(storage.tables.batchLedger);
    const batchId = crypto.randomUUID();
    const pending = await ledger.createPending('p-limits', batchId, 'tradeRecords', 'h', new Date());
    expect(await ledger.commit('p-limits', batchId, pending!, { recordCount: 500, warnings }, new Date())).toBe(true);
    const stored = await ledger.get('p-limits', batchId);
    expect(stored?.state === 'COMMITTED' && stored.receipt.warnings).toEqual(warnings);
  });
});
