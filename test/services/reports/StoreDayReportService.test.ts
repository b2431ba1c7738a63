import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DailyClose, Store, TradeRecord, TradeRecordBatch } from '../../../src/domain/model/payloads.js';
import { standardTransactionTypes } from '../../../src/domain/reference/standardTransactionTypes.js';
import { buildStamp } from '../../../src/reports/buildStamp.js';
import { LatestVersions } from '../../../src/reports/LatestVersions.js';
import { createStoreDayReportService } from '../../../src/services/createStoreDayReportService.js';
import type { StoreDayReportService } from '../../../src/services/reports/StoreDayReportService.js';
import { createStorageClients } from '../../../src/storage/StorageClients.js';
import { ReconciliationRepository } from '../../../src/storage/ReconciliationRepository.js';
import { ReportStoreDayRepository } from '../../../src/storage/ReportStoreDayRepository.js';
import { TradeRecordIndex } from '../../../src/storage/TradeRecordIndex.js';
import { independentTotals } from '../../support/independentTotals.js';
import { jpyDay, usdDay } from '../../domain/reconciliation/storeDays.js';
import { DuckDb, dataset, text } from '../../support/duckDb.js';
import { eventually, startTestService, type TestPartner, type TestService } from '../../support/startTestService.js';
import { downloadReports, reportNames } from './reportDownload.js';
import { mixedSetQuery } from '../../support/readmeDuckDbExamples.js';

/*
 * Store-days pushed over HTTP (several batches, versions superseded by later ones, a stale replay),
 * reconciled by the service, then written as report files to the storage emulator, downloaded and
 * read with DuckDB. Totals are compared to the minor unit with an independent integer computation.
 */

const businessDate = '2026-11-20';
const revenueCodes = standardTransactionTypes.data.filter((t) => t.is_revenue).map((t) => t.code);
const directions = { SALE: 1, REFUND: -1, DEPOSIT: 1, DEPOSIT_APPLIED: 0, ADJUSTMENT: 1 };
const fullMapping = { ...usdDay.mapping, ...jpyDay.mapping };
const withoutExchange = Object.fromEntries(Object.entries(fullMapping).filter(([code]) => code !== 'EX'));
const hostileStoreId = 'Ünï/store=1 %x.';

let service: TestService;
let reports: StoreDayReportService;
let clock = new Date('2026-11-21T06:00:00Z');
let acme: TestPartner;
let other: TestPartner;
let hostile: TestPartner;
const downloads: string[] = [];

function atScale4(amount: string): string {
  const [whole, fraction = ''] = amount.split('.');
  return `${whole}.${fraction.padEnd(4, '0')}`;
}

function store(storeId: string, currency: 'USD' | 'JPY'): Store {
  return {
    store_id: storeId,
    store_name: storeId,
    country_code: currency === 'USD' ? 'US' : 'JP',
    currency,
    time_zone: currency === 'USD' ? 'America/Los_Angeles' : 'Asia/Tokyo',
    locale: currency === 'USD' ? 'en-US' : 'ja-JP',
    workday_start: '04:00',
    prices_include_tax: currency === 'JPY',
    status: 'ACTIVE',
    last_modified_at: '2026-11-01T00:00:00Z',
  };
}

async function ok(partner: TestPartner, method: string, route: string, body: unknown): Promise<void> {
  const res = await service.call(partner, method, route, body);
  expect([200, 202], JSON.stringify(res.body)).toContain(res.status);
}

async function close(partner: TestPartner, storeId: string, currency: string, batchCount: number, totals: object): Promise<DailyClose> {
  const body = {
    batch_id: randomUUID(),
    store_id: storeId,
    business_date: businessDate,
    batch_count: batchCount,
    ...totals,
    currency,
    closed_at: '2026-11-21T05:00:00Z',
  } as DailyClose;
  await ok(partner, 'POST', 'daily-close', body);
  return body;
}

/** Waits for the reconciliation of this close, then writes the store-day's report files. */
async function reconcileAndReport(partner: TestPartner, storeId: string, closeBatchId: string): Promise<void> {
  const results = new ReconciliationRepository(service.services.storage.tables.reconciliations);
  const record = await eventually(
    () => results.get(partner.partnerId, storeId, businessDate),
    (r) => r?.closeBatchId === closeBatchId && r.status !== 'RECEIVED',
  );
  expect(record?.status).toMatch(/MATCHED|MISMATCHED/);
  clock = new Date(clock.getTime() + 60_000);
  const outcome = await reports.rebuild(partner.partnerId, storeId, businessDate);
  expect(outcome?.status).toBe('written');
}

async function download(): Promise<string> {
  const { root } = await downloadReports(service.services.storage.reports);
  downloads.push(root);
  return root;
}

function sorted<T extends Record<string, unknown>>(rows: T[], key: keyof T): T[] {
  return rows.sort((a, b) => String(a[key]).localeCompare(String(b[key])));
}

beforeAll(async () => {
  // The service's own reconciliations write the files too, stamped by the same clock as these builds.
  service = await startTestService({
    settings: { RECONCILE_DELAY_SECONDS: '0', REPORTS_CONTAINER: 'hq-reports' },
    services: { clock: () => clock },
  });
  reports = createStoreDayReportService(service.services.storage, () => clock, { prefetch: 1, rowGroupRows: 4 });

  acme = await service.createPartner({ stores: ['SEA-001', 'TKY-001'] });
  other = await service.createPartner({ stores: ['SEA-001'] });
  hostile = await service.createPartner({ stores: [hostileStoreId] });
  await ok(acme, 'PUT', 'stores', { batch_id: randomUUID(), stores: [store('SEA-001', 'USD'), store('TKY-001', 'JPY')] });
  await ok(other, 'PUT', 'stores', { batch_id: randomUUID(), stores: [store('SEA-001', 'USD')] });
  await ok(hostile, 'PUT', 'stores', { batch_id: randomUUID(), stores: [store(hostileStoreId, 'USD')] });
  const mapping = (codes: Record<string, string>) => ({
    batch_id: randomUUID(),
    mappings: Object.entries(codes).map(([source_code, standard_code]) => ({ source_code, standard_code })),
  });
  await ok(acme, 'PUT', 'mappings/transaction-types', mapping(withoutExchange));
  await ok(other, 'PUT', 'mappings/transaction-types', mapping(fullMapping));
  await ok(hostile, 'PUT', 'mappings/transaction-types', mapping(fullMapping));

  for (const batch of [...usdDay.batches, ...jpyDay.batches]) await ok(acme, 'POST', 'trade-records', batch);
  const [firstUsd] = usdDay.batches;
  if (!firstUsd) throw new Error('no USD batch');
  await ok(other, 'POST', 'trade-records', firstUsd);
  const moved = (r: TradeRecord): TradeRecord => ({ ...r, store_id: hostileStoreId });
  const hostileBatch: TradeRecordBatch = {
    ...firstUsd,
    store_id: hostileStoreId,
    trade_records: firstUsd.trade_records.slice(0, 2).map(moved),
  };
  await ok(hostile, 'POST', 'trade-records', hostileBatch);

  const usdClose = await close(acme, 'SEA-001', 'USD', 3, usdDay.handChecked);
  const jpyClose = await close(acme, 'TKY-001', 'JPY', 2, jpyDay.handChecked);
  const otherClose = await close(other, 'SEA-001', 'USD', 1, usdDay.handChecked);
  const hostileClose = await close(hostile, hostileStoreId, 'USD', 1, usdDay.handChecked);
  await reconcileAndReport(acme, 'SEA-001', usdClose.batch_id);
  await reconcileAndReport(acme, 'TKY-001', jpyClose.batch_id);
  await reconcileAndReport(other, 'SEA-001', otherClose.batch_id);
  await reconcileAndReport(hostile, hostileStoreId, hostileClose.batch_id);
});

afterAll(async () => {
  await service.stop();
  for (const root of downloads) rmSync(root, { recursive: true, force: true });
});

describe('files written from what the service stores', () => {
  let db: DuckDb;
  let root: string;
  beforeAll(async () => {
    root = await download();
    db = await DuckDb.open();
  });
  afterAll(() => {
    db.close();
  });
  const of = (name: string, partner: TestPartner, storeId: string) =>
    `FROM ${dataset(root, name)} WHERE partner_id = '${partner.partnerId}' AND store_id = '${storeId}'`;

  it('USD: the latest version of each transaction, totals exact against an independent computation', async () => {
    const expected = independentTotals(usdDay.finalRecords, { digits: 2, mapping: withoutExchange, revenueCodes, directions });
    const sales = await db.row(
      `SELECT sum(net_sales) FILTER (WHERE is_revenue) AS net, sum(tax_amount) FILTER (WHERE is_revenue) AS tax,
              sum(tip_amount) FILTER (WHERE is_revenue) AS tip, count(*) AS n ${of('sales_transactions', acme, 'SEA-001')}`,
    );
    const unmapped = await db.row(`SELECT count(*) AS n ${of('unmapped_transactions', acme, 'SEA-001')}`);
    expect(sales).toEqual({
      net: atScale4(expected.net_sales_amount),
      tax: atScale4(expected.tax_amount),
      tip: atScale4(expected.tip_amount),
      n: '13',
    });
    expect(unmapped).toEqual({ n: '1' });
    const versions = await db.rows(
      `SELECT trade_record_id, version, total_amount, batch_seq ${of('sales_transactions', acme, 'SEA-001')} AND trade_record_id IN ('U2', 'U9') ORDER BY trade_record_id`,
    );
    // U2: version 2 (a stale copy of version 1 came later in batch 3); U9: the later of two version-1 copies.
    expect(versions).toEqual([
      { trade_record_id: 'U2', version: '2', total_amount: '11.0000', batch_seq: '2' },
      { trade_record_id: 'U9', version: '1', total_amount: '13.7800', batch_seq: '2' },
    ]);
    const lines = await db.row(`SELECT count(*) AS n ${of('sales_lines', acme, 'SEA-001')} AND trade_record_id = 'U2'`);
    expect(lines).toEqual({ n: '2' });
  });

  it('JPY: totals exact, and both currencies exact when read together', async () => {
    const expected = independentTotals(jpyDay.finalRecords, { digits: 0, mapping: fullMapping, revenueCodes, directions });
    const jpy = await db.row(`SELECT sum(net_sales) FILTER (WHERE is_revenue) AS net ${of('sales_transactions', acme, 'TKY-001')}`);
    expect(jpy).toEqual({ net: atScale4(expected.net_sales_amount) });
    const payments = await db.row(`SELECT sum(signed_amount) AS total ${of('sales_payments', acme, 'TKY-001')}`);
    expect(payments).toEqual({ total: atScale4(expected.payment_total_amount) });
    const both = await db.rows(
      `SELECT currency, sum(tax_amount) FILTER (WHERE is_revenue) AS tax FROM ${dataset(root, 'sales_transactions')} WHERE partner_id = '${acme.partnerId}' GROUP BY currency ORDER BY currency`,
    );
    expect(both).toEqual([
      { currency: 'JPY', tax: '988.0000' },
      {
        currency: 'USD',
        tax: atScale4(independentTotals(usdDay.finalRecords, { digits: 2, mapping: withoutExchange, revenueCodes, directions }).tax_amount),
      },
    ]);
  });

  it("store_days: one row per store of the partner's day, with the reconciliation's figures", async () => {
    const results = new ReconciliationRepository(service.services.storage.tables.reconciliations);
    const rows = await db.rows(
      `SELECT store_id, status, actual_net_sales_amount, expected_net_sales_amount, differences, unmapped_transaction_count, sales_transaction_count
       FROM ${dataset(root, 'store_days')} WHERE partner_id = '${acme.partnerId}' ORDER BY store_id`,
    );
    const usd = await results.get(acme.partnerId, 'SEA-001', businessDate);
    expect(usd?.status).toBe('MISMATCHED');
    expect(rows).toEqual([
      {
        store_id: 'SEA-001',
        status: 'MISMATCHED',
        actual_net_sales_amount: atScale4(usd?.actual?.net_sales_amount ?? ''),
        expected_net_sales_amount: '299.6300',
        differences: usd?.differences.join(','),
        unmapped_transaction_count: '1',
        sales_transaction_count: '13',
      },
      {
        store_id: 'TKY-001',
        status: 'MATCHED',
        actual_net_sales_amount: '10022.0000',
        expected_net_sales_amount: '10022.0000',
        differences: '',
        unmapped_transaction_count: '0',
        sales_transaction_count: '8',
      },
    ]);
  });

  it("one partner's files hold only its own rows, under its own prefix", async () => {
    const own = await db.rows(
      `SELECT DISTINCT partner_id, filename LIKE '%/partner_id=' || partner_id || '/%' AS under_own_prefix
       FROM read_parquet('${root}/sales_transactions/**/*.parquet', hive_partitioning = true, filename = true)`,
    );
    expect(sorted(own, 'partner_id')).toEqual(
      sorted(
        [acme, other, hostile].map((p) => ({ partner_id: p.partnerId, under_own_prefix: true })),
        'partner_id',
      ),
    );
    // The other partner sent only the first USD batch for the same store id and transaction ids.
    const firstBatch = usdDay.batches[0]?.trade_records ?? [];
    const latestOfFirst = [...new Map(firstBatch.map((r) => [r.trade_record_id, r])).values()];
    const expected = independentTotals(latestOfFirst, { digits: 2, mapping: fullMapping, revenueCodes, directions });
    const theirs = await db.row(
      `SELECT count(*) AS n, sum(net_sales) FILTER (WHERE is_revenue) AS net ${of('sales_transactions', other, 'SEA-001')}`,
    );
    expect(theirs).toEqual({ n: String(latestOfFirst.length), net: atScale4(expected.net_sales_amount) });
  });

  it('a store id a path cannot hold is encoded in the path and read back exactly', async () => {
    const rows = await db.rows(
      `SELECT DISTINCT store_id FROM ${dataset(root, 'sales_transactions')} WHERE partner_id = '${hostile.partnerId}'`,
    );
    expect(rows).toEqual([{ store_id: hostileStoreId }]);
    const names = (await reportNames(service.services.storage.reports)).filter((n) => n.includes(hostile.partnerId));
    expect(names).toContain(
      `sales_transactions/partner_id=${hostile.partnerId}/business_date=${businessDate}/store_id=Ünï%2Fstore%3D1%20%25x%2E/part-0.parquet`,
    );
    // The README's check of a day's set finds each day's files by their folder, ids decoded.
    const mixed = mixedSetQuery({ root, partnerId: hostile.partnerId, businessDate });
    expect(await db.rows(mixed)).toEqual([]);
    const folder = await db.rows(
      `SELECT count(*) AS files FROM parquet_kv_metadata('${root}/*/partner_id=${hostile.partnerId}/**/*.parquet') WHERE decode(key) = 'pos.report_files_id'`,
    );
    expect(folder).toEqual([{ files: '3' }]);
  });
});

describe('when the mapping of the held-back code arrives', () => {
  let db: DuckDb;
  let root: string;
  beforeAll(async () => {
    await ok(acme, 'PUT', 'mappings/transaction-types', {
      batch_id: randomUUID(),
      mappings: Object.entries(fullMapping).map(([source_code, standard_code]) => ({ source_code, standard_code })),
    });
    // The upload re-reconciles the day that had the unmapped code, and the reconciliation rewrites its files.
    const storeDays = new ReportStoreDayRepository(service.services.storage.tables.reportStoreDays);
    const row = await eventually(
      async () => (await storeDays.list(acme.partnerId, businessDate)).find((r) => r.store_id === 'SEA-001'),
      (r) => r?.status === 'MATCHED',
    );
    expect(row?.counts.sales_transactions).toBe(14);
    expect(row?.counts.unmapped_transactions).toBe(0);
    clock = new Date(clock.getTime() + 60_000);
    const outcome = await reports.rebuild(acme.partnerId, 'SEA-001', businessDate);
    expect(outcome).toMatchObject({ status: 'written', counts: { sales_transactions: 14, unmapped_transactions: 0 } });
    root = await download();
    db = await DuckDb.open();
  });
  afterAll(() => {
    db.close();
  });

  it('the transaction moves from unmapped_transactions into the sales tables, and the stale file is gone', async () => {
    const names = await reportNames(service.services.storage.reports);
    expect(names.filter((n) => n.startsWith(`unmapped_transactions/partner_id=${acme.partnerId}/`))).toEqual([]);
    const u7 = await db.rows(
      `SELECT standard_type, net_sales FROM ${dataset(root, 'sales_transactions')} WHERE partner_id = '${acme.partnerId}' AND trade_record_id = 'U7'`,
    );
    expect(u7).toEqual([{ standard_type: 'EXCHANGE', net_sales: '10.0000' }]);
    expect(
      await db.row(
        `SELECT count(*) AS n FROM ${dataset(root, 'sales_lines')} WHERE partner_id = '${acme.partnerId}' AND trade_record_id = 'U7'`,
      ),
    ).toEqual({
      n: '2',
    });
  });

  it("the USD day's totals now equal the hand-checked close, and store_days says MATCHED", async () => {
    const sales = await db.row(
      `SELECT sum(net_sales) FILTER (WHERE is_revenue) AS net, count(*) AS n FROM ${dataset(root, 'sales_transactions')}
       WHERE partner_id = '${acme.partnerId}' AND store_id = 'SEA-001'`,
    );
    const payments = await db.row(
      `SELECT sum(signed_amount) AS total FROM ${dataset(root, 'sales_payments')} WHERE partner_id = '${acme.partnerId}' AND store_id = 'SEA-001'`,
    );
    expect(sales).toEqual({ net: atScale4(usdDay.handChecked.net_sales_amount), n: '14' });
    expect(payments).toEqual({ total: atScale4(usdDay.handChecked.payment_total_amount) });
    const day = await db.row(
      `SELECT status, unmapped_transaction_count FROM ${dataset(root, 'store_days')} WHERE partner_id = '${acme.partnerId}' AND store_id = 'SEA-001'`,
    );
    expect(day).toEqual({ status: 'MATCHED', unmapped_transaction_count: '0' });
  });
});

describe('writers racing each other', () => {
  it('a build that started before the last write does not overwrite it', async () => {
    const blob = service.services.storage.reports.getBlockBlobClient(
      `sales_transactions/partner_id=${acme.partnerId}/business_date=${businessDate}/store_id=SEA-001/part-0.parquet`,
    );
    const before = await blob.getProperties();
    const newest = clock;
    clock = new Date(newest.getTime() - 3_600_000);
    const outcome = await reports.rebuild(acme.partnerId, 'SEA-001', businessDate);
    clock = newest;
    expect(outcome?.status).toBe('superseded');
    expect((await blob.getProperties()).etag).toBe(before.etag);
  });

  it("a later run's build wins over an earlier run's, whichever instance's clock is ahead", async () => {
    // The other partner's day: the tests after this one rebuild acme's days with their own run.
    const record = await new ReconciliationRepository(service.services.storage.tables.reconciliations).get(
      other.partnerId,
      'SEA-001',
      businessDate,
    );
    if (!record?.actual || !record.checkedAt || record.status === 'RECEIVED') throw new Error('the day is not reconciled');
    expect(record.runNumber).toBeGreaterThan(0);
    const run = record.runNumber ?? 0;
    const day = {
      partnerId: other.partnerId,
      storeId: 'SEA-001',
      businessDate,
      status: record.status,
      currency: 'USD',
      expected: record.expected,
      actual: record.actual,
      differences: record.differences,
      reconciledAt: record.checkedAt,
      closeBatchId: record.closeBatchId,
    };
    const blob = service.services.storage.reports.getBlockBlobClient(
      `sales_transactions/partner_id=${other.partnerId}/business_date=${businessDate}/store_id=SEA-001/part-0.parquet`,
    );
    const storeDays = new ReportStoreDayRepository(service.services.storage.tables.reportStoreDays);
    const now = clock;
    try {
      // The later run's instance runs an hour behind; the earlier run's builds after it, on time.
      clock = new Date(now.getTime() - 3_600_000);
      const later = await reports.write({ ...day, runNumber: run + 1 }, { mapping: new Map(Object.entries(fullMapping)) });
      expect(later.status).toBe('written');
      const written = await blob.getProperties();
      clock = new Date(now.getTime() + 60_000);
      const earlier = await reports.write({ ...day, runNumber: run }, { mapping: new Map(Object.entries(fullMapping)) });
      expect(earlier.status).toBe('superseded');
      expect((await blob.getProperties()).etag).toBe(written.etag);
      expect((await storeDays.get(other.partnerId, businessDate, 'SEA-001'))?.report_generated_at).toBe(later.generatedAt);
    } finally {
      clock = now;
    }
  });

  it('two stores of the same day written at once both end up in store_days', async () => {
    clock = new Date(clock.getTime() + 60_000);
    const [usd, jpy] = await Promise.all([
      reports.rebuild(acme.partnerId, 'SEA-001', businessDate),
      reports.rebuild(acme.partnerId, 'TKY-001', businessDate),
    ]);
    expect([usd?.status, jpy?.status]).toEqual(['written', 'written']);
    const root = await download();
    const db = await DuckDb.open();
    try {
      const rows = await db.rows(
        `SELECT store_id, epoch_ms(report_generated_at) AS generated FROM ${dataset(root, 'store_days')} WHERE partner_id = '${acme.partnerId}' ORDER BY store_id`,
      );
      expect(rows).toEqual([
        { store_id: 'SEA-001', generated: String(clock.getTime()) },
        { store_id: 'TKY-001', generated: String(clock.getTime()) },
      ]);
    } finally {
      db.close();
    }
  });

  it('the latest versions collected during a reconciliation give the same files as listing the index', async () => {
    const index = new TradeRecordIndex(service.services.storage.tables.tradeRecords);
    const latest = new LatestVersions();
    for await (const row of index.listDay(acme.partnerId, 'TKY-001', businessDate)) if (row.type === 'transaction') latest.add(row.summary);
    const blob = service.services.storage.reports.getBlockBlobClient(
      `sales_lines/partner_id=${acme.partnerId}/business_date=${businessDate}/store_id=TKY-001/part-0.parquet`,
    );
    const listed = await blob.downloadToBuffer();
    clock = new Date(clock.getTime() + 60_000);
    const results = new ReconciliationRepository(service.services.storage.tables.reconciliations);
    const record = await results.get(acme.partnerId, 'TKY-001', businessDate);
    if (!record?.actual || !record.checkedAt || record.status === 'RECEIVED') throw new Error('TKY-001 is not reconciled');
    const outcome = await reports.write(
      {
        partnerId: acme.partnerId,
        storeId: 'TKY-001',
        businessDate,
        status: record.status,
        currency: 'JPY',
        expected: record.expected,
        actual: record.actual,
        differences: record.differences,
        reconciledAt: record.checkedAt,
        closeBatchId: record.closeBatchId,
        runNumber: record.runNumber ?? 0,
      },
      { mapping: new Map(Object.entries(fullMapping)), latest },
    );
    expect(outcome.status).toBe('written');
    expect(Buffer.compare(await blob.downloadToBuffer(), listed)).toBe(0);
    expect(text((await blob.getProperties()).metadata?.generatedat)).toBe(buildStamp(record.runNumber ?? 0, clock.toISOString()));
  });

  it('a rewrite of an unchanged store-day uploads no file again; a file changed outside the service is replaced', async () => {
    // Every blob PUT with a body (an upload) of a store-day file, as the storage emulator receives it.
    const uploads: string[] = [];
    const storage = createStorageClients(service.services.config, {
      policy: {
        name: 'countUploads',
        sendRequest: (request, next) => {
          const url = new URL(request.url);
          if (request.method === 'PUT' && !url.searchParams.has('comp') && url.pathname.endsWith('.parquet')) {
            uploads.push(decodeURIComponent(url.pathname));
          }
          return next(request);
        },
      },
    });
    const counted = createStoreDayReportService(storage, () => clock);
    const blob = storage.reports.getBlockBlobClient(
      `sales_lines/partner_id=${acme.partnerId}/business_date=${businessDate}/store_id=SEA-001/part-0.parquet`,
    );
    clock = new Date(clock.getTime() + 60_000);
    expect((await counted.rebuild(acme.partnerId, 'SEA-001', businessDate))?.status).toBe('written');
    const content = await blob.downloadToBuffer();

    uploads.length = 0;
    clock = new Date(clock.getTime() + 60_000);
    expect((await counted.rebuild(acme.partnerId, 'SEA-001', businessDate))?.status).toBe('written');
    // store_days holds the new build's stamp, so it is uploaded; the store-day's files are unchanged.
    expect(uploads.filter((name) => !name.includes('/store_days/'))).toEqual([]);
    expect(Buffer.compare(await blob.downloadToBuffer(), content)).toBe(0);
    const run = (await new ReconciliationRepository(storage.tables.reconciliations).get(acme.partnerId, 'SEA-001', businessDate))
      ?.runNumber;
    expect(text((await blob.getProperties()).metadata?.generatedat)).toBe(buildStamp(run ?? 0, clock.toISOString()));

    await blob.uploadData(Buffer.from('not a report file'));
    uploads.length = 0;
    clock = new Date(clock.getTime() + 60_000);
    expect((await counted.rebuild(acme.partnerId, 'SEA-001', businessDate))?.status).toBe('written');
    expect(uploads.filter((name) => !name.includes('/store_days/'))).toEqual([expect.stringContaining('/sales_lines/')]);
    expect(Buffer.compare(await blob.downloadToBuffer(), content)).toBe(0);
  });
});
