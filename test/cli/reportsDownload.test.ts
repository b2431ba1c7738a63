import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDailyClose } from '../fixtures/masterDataFixtures.js';
import { fixtureBusinessDate } from '../fixtures/tradeRecordFixtures.js';
import { ReportStoreDayRepository } from '../../src/storage/ReportStoreDayRepository.js';
import { reportNames } from '../services/reports/reportDownload.js';
import { DuckDb, dataset } from '../support/duckDb.js';
import { mixedSetQuery, readmeDuckDbExamples } from '../support/readmeDuckDbExamples.js';
import { newBatchId, partnerWithStores, reconciled, tradeBatch, usdStore } from '../support/httpScenario.js';
import { eventually, startTestService, type TestPartner, type TestService } from '../support/startTestService.js';

let service: TestService;
let acme: TestPartner;
let other: TestPartner;
const folders: string[] = [];

/** A partner's USD day of three sales, closed and reconciled; resolves once its files are written. */
async function reportedDay(): Promise<TestPartner> {
  const partner = await partnerWithStores(service, { mapping: true });
  expect((await service.call(partner, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
  expect((await service.call(partner, 'POST', 'daily-close', { ...buildDailyClose(), batch_id: newBatchId() })).status).toBe(202);
  expect((await reconciled(service, partner, usdStore, fixtureBusinessDate)).status).toBe('MATCHED');
  const storeDayFile = `store_days/partner_id=${partner.partnerId}/`;
  const filesOf = async () => (await reportNames(service.services.storage.reports)).filter((name) => name.startsWith(storeDayFile));
  expect(await eventually(filesOf, (names) => names.length > 0)).toHaveLength(1);
  return partner;
}

function folder(): string {
  const made = mkdtempSync(path.join(tmpdir(), 'hq-reports-'));
  folders.push(made);
  return made;
}

/** Every file below `root`, as paths relative to it with `/`. */
function filesBelow(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

beforeAll(async () => {
  service = await startTestService({ settings: { RECONCILE_DELAY_SECONDS: '0' } });
  acme = await reportedDay();
  other = await reportedDay();
}, 120_000);

afterAll(async () => {
  await service.stop();
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

describe('hq reports download', () => {
  it("copies one partner's report files at their blob names, which DuckDB reads as written", async () => {
    const root = folder();
    const copied = await service.hq('reports', 'download', root, '--partner', acme.partnerId.toUpperCase());
    expect(copied.code, copied.err.join('\n')).toBe(0);
    const files = filesBelow(root);
    expect(copied.out).toEqual([`${files.length} report file(s) copied into ${root}`]);
    // Its four datasets with rows (unmapped_transactions has none) and nothing of the other partner or of _state/.
    expect(files.map((name) => name.split('/').slice(0, 2).join('/'))).toEqual(
      ['sales_lines', 'sales_payments', 'sales_transactions', 'store_days'].map((d) => `${d}/partner_id=${acme.partnerId}`),
    );
    const db = await DuckDb.open();
    try {
      expect(await db.row(`SELECT count(*) AS n, min(store_id) AS store FROM ${dataset(root, 'sales_transactions')}`)).toEqual({
        n: '3',
        store: usdStore,
      });
      expect(await db.row(`SELECT status FROM ${dataset(root, 'store_days')}`)).toEqual({ status: 'MATCHED' });
    } finally {
      db.close();
    }
  });

  it('copies every partner without --partner, and refuses an unknown partner or a missing folder', async () => {
    const root = folder();
    expect((await service.hq('reports', 'download', root)).code).toBe(0);
    const partners = new Set(filesBelow(root).map((name) => name.split('/')[1]));
    expect(partners).toEqual(new Set([`partner_id=${acme.partnerId}`, `partner_id=${other.partnerId}`]));
    expect(filesBelow(root).some((name) => name.startsWith('_state/'))).toBe(false);

    const unknown = await service.hq('reports', 'download', folder(), '--partner', `${acme.partnerId}-gone`);
    expect(unknown.code).toBe(1);
    expect((await service.hq('reports', 'download')).code).toBe(2);
  });

  it("runs the README's DuckDB examples as written on a downloaded folder", async () => {
    const root = folder();
    // The stores file is the timer's; the rebuild writes it at once.
    expect((await service.hq('reports', 'rebuild')).code).toBe(0);
    expect((await service.hq('reports', 'download', root)).code).toBe(0);
    const statements = readmeDuckDbExamples({ root, partnerId: acme.partnerId, businessDate: fixtureBusinessDate });
    expect(statements).toHaveLength(5);
    expect(statements[0]).toContain(fixtureBusinessDate);
    const db = await DuckDb.open();
    try {
      const [daySales, topLines, byLocalHour, problemDays, mixedDays] = [
        await db.rows(statements[0]!),
        await db.rows(statements[1]!),
        await db.rows(statements[2]!),
        await db.rows(statements[3]!),
        await db.rows(statements[4]!),
      ];
      // Both partners' MATCHED days, three sales each.
      expect(daySales.map((row) => [row.partner_id, row.transactions])).toEqual(
        [acme.partnerId, other.partnerId].sort().map((id) => [id, '3']),
      );
      expect(topLines.length).toBeGreaterThan(0);
      // Every sale joined to its named store, at an hour of its local day.
      expect(byLocalHour.length).toBeGreaterThan(0);
      for (const row of byLocalHour) {
        expect(typeof row.store_name).toBe('string');
        expect(Number(row.local_hour)).toBeGreaterThanOrEqual(0);
      }
      expect(problemDays).toEqual([]);
      // Every store-day's files are one set, each day's footers naming the id its row names.
      expect(mixedDays).toEqual([]);
      const ids = await db.rows(
        `SELECT DISTINCT decode(value) AS id FROM parquet_kv_metadata('${root}/sales_*/**/*.parquet') WHERE decode(key) = 'pos.report_files_id'`,
      );
      expect(ids).toHaveLength(2);
    } finally {
      db.close();
    }
  });

  it("runs the README's DuckDB examples on a folder that also holds files of a release before a column was added", async () => {
    const root = folder();
    expect((await service.hq('reports', 'rebuild')).code).toBe(0);
    expect((await service.hq('reports', 'download', root)).code).toBe(0);
    // A store_days file as a release before report_files_id wrote it, for an earlier day: the
    // first file a glob reaches.
    const current = filesBelow(root).find((name) => name.startsWith(`store_days/partner_id=${acme.partnerId}/`))!;
    const olderDay = '2025-01-02';
    const older = path.join(root, current.replace(/business_date=[^/]+/, `business_date=${olderDay}`));
    mkdirSync(path.dirname(older), { recursive: true });
    const db = await DuckDb.open();
    try {
      await db.rows(
        `COPY (SELECT * EXCLUDE (report_files_id) REPLACE (DATE '${olderDay}' AS business_date) FROM read_parquet('${path.join(root, current)}')) TO '${older}' (FORMAT parquet)`,
      );
      const statements = readmeDuckDbExamples({ root, partnerId: acme.partnerId, businessDate: fixtureBusinessDate });
      const results = [];
      for (const statement of statements) results.push(await db.rows(statement));
      const [daySales, , , problemDays, mixedDays] = results;
      expect(daySales!.map((row) => [row.partner_id, row.transactions])).toEqual(
        [acme.partnerId, other.partnerId].sort().map((id) => [id, '3']),
      );
      expect(problemDays).toEqual([]);
      // The older day names no set: it is left out, and every other day's files are one set.
      expect(mixedDays).toEqual([]);
      const olderRow = await db.row(
        `SELECT report_files_id FROM read_parquet('${root}/store_days/**/*.parquet', hive_partitioning = true, union_by_name = true) WHERE business_date = DATE '${olderDay}'`,
      );
      expect(olderRow).toEqual({ report_files_id: null });
    } finally {
      db.close();
    }
  });

  it("the README's last example names a store-day whose copy was taken across a rewrite", async () => {
    const before = folder();
    expect((await service.hq('reports', 'download', before, '--partner', acme.partnerId)).code).toBe(0);
    // A late batch: the day is reconciled again and its files rewritten with a fourth sale.
    const storeDays = new ReportStoreDayRepository(service.services.storage.tables.reportStoreDays);
    const previous = await storeDays.get(acme.partnerId, fixtureBusinessDate, usdStore);
    expect(
      (
        await service.call(
          acme,
          'POST',
          'trade-records',
          tradeBatch({ recordCount: 1, batchSeq: 2, tradeRecordIdOf: () => 'T-late-000001' }),
        )
      ).status,
    ).toBe(202);
    const row = await eventually(
      () => storeDays.get(acme.partnerId, fixtureBusinessDate, usdStore),
      (current) => current?.counts.sales_transactions === 4,
    );
    expect(row?.report_files_id).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.report_files_id).not.toBe(previous?.report_files_id);
    // store_days is written after the day's files: once its file counts four sales, so do they.
    const after = folder();
    await eventually(
      async () => {
        expect((await service.hq('reports', 'download', after, '--partner', acme.partnerId)).code).toBe(0);
        const db = await DuckDb.open();
        try {
          return await db.row(`SELECT sales_transaction_count AS n FROM ${dataset(after, 'store_days')}`);
        } finally {
          db.close();
        }
      },
      (counted) => counted.n === '4',
    );
    const mixed = mixedSetQuery({ root: after, partnerId: acme.partnerId, businessDate: fixtureBusinessDate });
    const db = await DuckDb.open();
    try {
      expect(await db.rows(mixed)).toEqual([]);
      const day = [{ partner_id: acme.partnerId, store_id: usdStore, business_date: fixtureBusinessDate }];
      // The copy's sales_lines taken before the rewrite, the rest after it.
      const lines = filesBelow(after).find((name) => name.startsWith('sales_lines/'))!;
      const current = readFileSync(path.join(after, lines));
      copyFileSync(path.join(before, lines), path.join(after, lines));
      expect(await db.rows(mixed)).toEqual(day);
      // A file of the earlier build left in a dataset the day no longer has rows in (a copy taken
      // before a rewrite removed it): every file the row counts is of its set, one more is not.
      writeFileSync(path.join(after, lines), current);
      expect(await db.rows(mixed)).toEqual([]);
      const leftover = path.join(after, lines.replace(/^sales_lines\//, 'unmapped_transactions/'));
      mkdirSync(path.dirname(leftover), { recursive: true });
      copyFileSync(path.join(before, lines), leftover);
      expect(await db.rows(mixed)).toEqual(day);
    } finally {
      db.close();
    }
  });

  it('makes a folder downloaded into before a copy again: files the reports no longer have are removed, nothing else', async () => {
    const root = folder();
    expect((await service.hq('reports', 'download', root)).code).toBe(0);
    const [payments] = (await reportNames(service.services.storage.reports)).filter((name) =>
      name.startsWith(`sales_payments/partner_id=${acme.partnerId}/`),
    );
    // What the service does when a store-day no longer has rows in a dataset (a code mapped since).
    await service.services.storage.reports.deleteBlob(payments!);
    const note = path.join(root, 'sales_payments', 'README.txt');
    writeFileSync(note, 'an analyst note');
    const otherPartner = filesBelow(root).filter((name) => name.startsWith(`sales_payments/partner_id=${other.partnerId}/`));
    mkdirSync(path.join(root, 'sales_payments', 'old'), { recursive: true });
    writeFileSync(path.join(root, 'sales_payments', 'old', 'part-0.parquet'), 'not in the container');

    const again = await service.hq('reports', 'download', root, '--partner', acme.partnerId);
    expect(again.code, again.err.join('\n')).toBe(0);
    // Only acme's datasets are in scope: the other partner's file and the stray folder outside it stay.
    const acmeFiles = (await reportNames(service.services.storage.reports)).filter(
      (name) => name.split('/')[1] === `partner_id=${acme.partnerId}`,
    );
    expect(again.out).toEqual([`${acmeFiles.length} report file(s) copied into ${root}; 1 file(s) the reports no longer have removed`]);
    const files = filesBelow(root);
    expect(files.filter((name) => name.startsWith(`sales_payments/partner_id=${acme.partnerId}/`))).toEqual([]);
    expect(readdirSync(path.join(root, 'sales_payments'))).not.toContain(`partner_id=${acme.partnerId}`);
    expect(files).toEqual(expect.arrayContaining([...otherPartner, 'sales_payments/README.txt', 'sales_payments/old/part-0.parquet']));

    // Without --partner every dataset is in scope: the stray Parquet file goes, the note stays.
    const all = await service.hq('reports', 'download', root);
    expect(all.out[0]).toMatch(/; 1 file\(s\) the reports no longer have removed$/);
    expect(filesBelow(root)).toContain('sales_payments/README.txt');
    expect(filesBelow(root)).not.toContain('sales_payments/old/part-0.parquet');
  });
});
