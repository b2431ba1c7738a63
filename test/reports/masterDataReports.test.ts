import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterDataReportsSchedule } from '../../src/functions/functionTable.js';
import type { MappingBatch } from '../../src/domain/model/payloads.js';
import { standardTransactionTypes } from '../../src/domain/reference/standardTransactionTypes.js';
import { buildJpyStore, buildMappingBatch, buildProductBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { DuckDb, dataset } from '../support/duckDb.js';
import { jpyStore, partnerWithStores, usdStore } from '../support/httpScenario.js';
import { runTimerFunction } from '../support/runTimerFunction.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';

let service: TestService;
let partner: TestPartner;
const folders: string[] = [];

beforeAll(async () => {
  service = await startTestService();
  partner = await partnerWithStores(service);
}, 60_000);

afterAll(async () => {
  await service.stop();
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

const runTimer = (): Promise<string[]> => runTimerFunction(service, 'writeMasterDataReports', masterDataReportsSchedule);

/** A query over the partner's files as DuckDB reads them from a downloaded copy. */
async function query(sql: (root: string) => string): Promise<Record<string, unknown>[]> {
  const root = mkdtempSync(path.join(tmpdir(), 'hq-master-data-'));
  folders.push(root);
  expect((await service.hq('reports', 'download', root, '--partner', partner.partnerId)).code).toBe(0);
  const db = await DuckDb.open();
  try {
    return await db.rows(sql(root));
  } finally {
    db.close();
  }
}

/** The partner's stores file, by store_id. */
const storesRows = (): Promise<Record<string, unknown>[]> =>
  query(
    (root) =>
      `SELECT store_id, registration_status, retired_at IS NOT NULL AS retired, store_name, currency, time_zone, workday_start,
              prices_include_tax, status, typeof(last_modified_at) AS modified_type, partner_id
       FROM ${dataset(root, 'stores')} ORDER BY store_id`,
  );

describe('the master-data datasets (timer)', () => {
  it("writes each registered store with the partner's master data, and rewrites it only when either changes", async () => {
    const extra = `S-${randomUUID().slice(0, 8)}`;
    expect((await service.hq('store', 'register', partner.partnerId, extra)).code).toBe(0);

    expect(await runTimer()).toContain(
      'writeMasterDataReports: 1 partners; stores files 1 written, 0 unchanged, 0 removed; products files 0 written, 0 unchanged, 0 removed; transaction_type_mappings files 0 written, 0 unchanged, 0 removed; 0 partners failed',
    );
    const [usd, jpy] = [buildUsdStore(usdStore), buildJpyStore(jpyStore)];
    expect(await storesRows()).toEqual(
      [
        {
          store_id: jpyStore,
          registration_status: 'ACTIVE',
          retired: false,
          store_name: jpy.store_name,
          currency: 'JPY',
          time_zone: jpy.time_zone,
          workday_start: jpy.workday_start,
          prices_include_tax: jpy.prices_include_tax,
          status: jpy.status,
          modified_type: 'TIMESTAMP WITH TIME ZONE',
          partner_id: partner.partnerId,
        },
        {
          store_id: usdStore,
          registration_status: 'ACTIVE',
          retired: false,
          store_name: usd.store_name,
          currency: 'USD',
          time_zone: usd.time_zone,
          workday_start: usd.workday_start,
          prices_include_tax: usd.prices_include_tax,
          status: usd.status,
          modified_type: 'TIMESTAMP WITH TIME ZONE',
          partner_id: partner.partnerId,
        },
        // Registered, no master data sent yet.
        {
          store_id: extra,
          registration_status: 'ACTIVE',
          retired: false,
          store_name: null,
          currency: null,
          time_zone: null,
          workday_start: null,
          prices_include_tax: null,
          status: null,
          modified_type: 'TIMESTAMP WITH TIME ZONE',
          partner_id: partner.partnerId,
        },
      ].sort((a, b) => (a.store_id < b.store_id ? -1 : 1)),
    );

    expect(await runTimer()).toContain(
      'writeMasterDataReports: 1 partners; stores files 0 written, 1 unchanged, 0 removed; products files 0 written, 0 unchanged, 0 removed; transaction_type_mappings files 0 written, 0 unchanged, 0 removed; 0 partners failed',
    );

    // A retirement and new master data each make the next run rewrite the file.
    expect((await service.hq('store', 'retire', partner.partnerId, extra)).code).toBe(0);
    const renamed = { ...usd, store_name: 'Renamed', time_zone: 'America/Chicago', last_modified_at: new Date().toISOString() };
    expect((await service.call(partner, 'PUT', 'stores', { batch_id: randomUUID(), stores: [renamed] })).status).toBe(202);
    expect(await runTimer()).toContain(
      'writeMasterDataReports: 1 partners; stores files 1 written, 0 unchanged, 0 removed; products files 0 written, 0 unchanged, 0 removed; transaction_type_mappings files 0 written, 0 unchanged, 0 removed; 0 partners failed',
    );
    const rows = await storesRows();
    expect(rows.find((row) => row.store_id === extra)).toMatchObject({ registration_status: 'RETIRED', retired: true });
    expect(rows.find((row) => row.store_id === usdStore)).toMatchObject({ store_name: 'Renamed', time_zone: 'America/Chicago' });
  });

  it('writes each product at its stored version, and again once a newer version is stored', async () => {
    const batch = { ...buildProductBatch(), batch_id: randomUUID() };
    expect((await service.call(partner, 'PUT', 'products', batch)).status).toBe(202);
    expect(await runTimer()).toContain(
      `writeMasterDataReports: 1 partners; stores files 0 written, 1 unchanged, 0 removed; products files 1 written, 0 unchanged, 0 removed; transaction_type_mappings files 0 written, 0 unchanged, 0 removed; 0 partners failed`,
    );
    const products = (root: string) =>
      `SELECT product_id, store_id, json_extract_string(name, '$."en-US"') AS name_en, unit_price::VARCHAR AS unit_price, currency,
              version, product_type, typeof(unit_price) AS price_type
       FROM ${dataset(root, 'products')} ORDER BY product_id, store_id NULLS FIRST`;
    const sent = [...batch.products].sort((a, b) => (a.product_id < b.product_id ? -1 : a.product_id > b.product_id ? 1 : 0));
    expect(await query(products)).toEqual(
      sent.map((product) => ({
        product_id: product.product_id,
        store_id: product.store_id ?? null,
        name_en: product.name['en-US'] ?? null,
        unit_price: new Big(product.unit_price).toFixed(4),
        currency: product.currency,
        version: String(product.version),
        product_type: product.product_type,
        price_type: 'DECIMAL(18,4)',
      })),
    );

    const [first] = batch.products;
    const newer = { ...first!, version: first!.version + 1, unit_price: '9.99', last_modified_at: new Date().toISOString() };
    expect((await service.call(partner, 'PUT', 'products', { batch_id: randomUUID(), products: [newer] })).status).toBe(202);
    expect((await runTimer()).join('\n')).toContain('products files 1 written, 0 unchanged, 0 removed');
    const rows = await query(products);
    expect(rows.find((row) => row.product_id === newer.product_id && row.store_id === (newer.store_id ?? null))).toMatchObject({
      version: String(newer.version),
      unit_price: '9.9900',
    });
  });

  it('writes each code of the mapping in effect with what the standard list says of it, and again after an upload', async () => {
    const first = { ...buildMappingBatch(), batch_id: randomUUID() };
    expect((await service.call(partner, 'PUT', 'mappings/transaction-types', first)).status).toBe(202);
    expect((await runTimer()).join('\n')).toContain('transaction_type_mappings files 1 written, 0 unchanged, 0 removed');
    const mappings = (root: string) =>
      `SELECT source_transaction_type, source_name, standard_type, is_standard, is_revenue, mapping_batch_id,
              typeof(mapping_updated_at) AS updated_type, partner_id
       FROM ${dataset(root, 'transaction_type_mappings')} ORDER BY source_transaction_type`;
    const revenue = new Map(standardTransactionTypes.data.map((type) => [type.code, type.is_revenue]));
    const expectedRows = (batch: MappingBatch) =>
      batch.mappings
        .map((entry) => ({
          source_transaction_type: entry.source_code,
          source_name: entry.source_name ?? null,
          standard_type: entry.standard_code,
          is_standard: true,
          is_revenue: revenue.get(entry.standard_code),
          mapping_batch_id: batch.batch_id,
          updated_type: 'TIMESTAMP WITH TIME ZONE',
          partner_id: partner.partnerId,
        }))
        .sort((a, b) => (a.source_transaction_type < b.source_transaction_type ? -1 : 1));
    expect(await query(mappings)).toEqual(expectedRows(first));
    expect((await runTimer()).join('\n')).toContain('transaction_type_mappings files 0 written, 1 unchanged, 0 removed');

    // A new upload replaces the mapping in effect: the next run rewrites the file from it.
    const second = { batch_id: randomUUID(), mappings: [...first.mappings, { source_code: '77', standard_code: 'NO_SALE' }] };
    expect((await service.call(partner, 'PUT', 'mappings/transaction-types', second)).status).toBe(202);
    expect((await runTimer()).join('\n')).toContain('transaction_type_mappings files 1 written, 0 unchanged, 0 removed');
    expect(await query(mappings)).toEqual(expectedRows(second));
  });
});
