/**
 * A store-day whose transactions carry 150 distinct unmapped source codes of 128 characters
 * (identifier allows it; each transaction may have its own code): the store-day's row of totals
 * outgrows one table property, and must still be stored, so that HQ's unmapped view and the
 * report files list every code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataset } from '../support/duckDb.js';
import { buildDayBatch, unmappedDayClose } from '../reliability/support/dayScenario.js';
import { seededRandom } from '../reliability/support/random.js';
import { eventually, startTestService, type TestOperator, type TestPartner, type TestService } from '../support/startTestService.js';
import { queryReports, reportNames } from '../services/reports/reportDownload.js';
import { newBatchId, partnerWithStores, reconciled, usdStore } from '../support/httpScenario.js';
import { listOf } from '../hq/support/hqBodies.js';

const now = new Date('2026-03-02T12:00:00Z');
const businessDate = '2026-02-21';
let service: TestService;
let viewer: TestOperator;
let owner: TestPartner;
let codes: string[] = [];

beforeAll(async () => {
  service = await startTestService({ services: { clock: () => now }, settings: { RECONCILE_DELAY_SECONDS: '0' } });
  viewer = await service.createOperator('viewer');
  owner = await partnerWithStores(service, { mapping: true });
  const batch = buildDayBatch(seededRandom(77), usdStore, businessDate, 150, 'mu');
  codes = batch.trade_records.map((r, i) => (r.source_transaction_type = `CODE-${String(i).padStart(3, '0')}-`.padEnd(128, 'x')));
  expect((await service.call(owner, 'POST', 'trade-records', batch)).status).toBe(202);
  const close = unmappedDayClose(usdStore, businessDate, batch.trade_records, newBatchId());
  expect((await service.call(owner, 'POST', 'daily-close', close)).status).toBe(202);
  expect((await reconciled(service, owner, usdStore, businessDate)).status).toBe('MATCHED');
}, 60_000);
afterAll(async () => {
  await service.stop();
});

describe('150 distinct 128-character unmapped codes in one store-day', () => {
  it('are listed by GET /hq/v1/unmapped', async () => {
    // The report row is written after the reconciliation result.
    const items = await eventually(
      async () =>
        listOf<{ source_transaction_type: string }>(
          await service.callHost(viewer, 'GET', `hq/v1/unmapped?partner_id=${owner.partnerId}&limit=200`),
        ).items,
      (listed) => listed.length >= codes.length,
    );
    expect(items.map((u) => u.source_transaction_type)).toEqual(codes);
  });

  it('are in the unmapped_transactions file, and the day in the store_days file', async () => {
    // The partner-day's store_days file is written after the day's own files.
    await eventually(
      () => reportNames(service.services.storage.reports),
      (names) => names.some((name) => name.startsWith('store_days/')),
    );
    await queryReports(service.services.storage.reports, async (db, root) => {
      expect(await db.rows(`SELECT count(*) AS n FROM ${dataset(root, 'unmapped_transactions')}`)).toEqual([{ n: '150' }]);
      expect(
        await db.rows(
          `SELECT store_id, unmapped_transaction_count AS n FROM ${dataset(root, 'store_days')} WHERE business_date = '${businessDate}'`,
        ),
      ).toEqual([{ store_id: usdStore, n: '150' }]);
    });
  });

  it('logs no report failure', () => {
    expect(service.logs.filter((l) => /REPORT_|PropertyValueTooLarge/.test(l)).map((l) => l.slice(0, 300))).toEqual([]);
  });
});
