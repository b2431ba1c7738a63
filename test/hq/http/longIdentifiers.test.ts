/**
 * Store ids the schemas allow that a table key, a blob name or a URL cannot carry as they are:
 * every HQ read names them as they were registered, and never fails on them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePartitionValue } from '../../../src/reports/encodePartitionValue.js';
import { ReportStoreDayRepository } from '../../../src/storage/ReportStoreDayRepository.js';
import { reportNames } from '../../services/reports/reportDownload.js';
import { buildDayBatch, sendClose } from '../../reliability/support/dayScenario.js';
import { seededRandom } from '../../reliability/support/random.js';
import { buildMappingBatch, buildUsdStore } from '../../fixtures/masterDataFixtures.js';
import { newBatchId, reconciled } from '../../support/httpScenario.js';
import { eventually, startTestService, type TestOperator, type TestPartner, type TestService } from '../../support/startTestService.js';
import { gridOf, listOf, objectOf } from '../support/hqBodies.js';

const now = new Date('2026-03-02T12:00:00Z');
const businessDate = '2026-02-20';
/** 128 characters, nine once encoded: far beyond a key's 512 characters. */
const longStore = '漢'.repeat(128);
/** 128 emoji: twelve characters each in the usual encoding of a report path, too long for a blob name. */
const emojiStore = '😀'.repeat(128);
/** A slash (sent as `%2F`, which the host's web server leaves undecoded), and `%` itself. */
const slashStore = 'NYC/01 #?%';
let service: TestService;
let viewer: TestOperator;
let owner: TestPartner;

beforeAll(async () => {
  service = await startTestService({ services: { clock: () => now }, settings: { RECONCILE_DELAY_SECONDS: '0' } });
  viewer = await service.createOperator('viewer');
  owner = await service.createPartner({ stores: [longStore, emojiStore, slashStore, 'S-short'] });
  const stores = [buildUsdStore(longStore), buildUsdStore(emojiStore), buildUsdStore(slashStore)];
  expect((await service.call(owner, 'PUT', 'stores', { batch_id: newBatchId(), stores })).status).toBe(202);
  expect((await service.call(owner, 'PUT', 'mappings/transaction-types', { ...buildMappingBatch(), batch_id: newBatchId() })).status).toBe(
    202,
  );
  const random = seededRandom(3031);
  for (const [storeId, prefix] of [
    [longStore, 'li'],
    [emojiStore, 'em'],
    [slashStore, 'sl'],
  ] as const) {
    const batch = buildDayBatch(random, storeId, businessDate, 20, prefix);
    expect((await service.call(owner, 'POST', 'trade-records', batch)).status).toBe(202);
    await sendClose(service, owner, random, storeId, businessDate, batch.trade_records, 1);
    expect((await reconciled(service, owner, encodeURIComponent(storeId), businessDate)).status).toBe('MATCHED');
  }
});
afterAll(async () => {
  await service.stop();
});

const get = (path: string) => service.callHost(viewer, 'GET', `hq/v1/${path}`);

describe('a store id whose table key is a digest', () => {
  it('is listed by the grid with its day', async () => {
    const grid = gridOf(await get(`store-days?from=${businessDate}&to=${businessDate}&partner_id=${owner.partnerId}`));
    expect(grid.items.map((row) => row.store_id).sort()).toEqual(['S-short', longStore, emojiStore, slashStore].sort());
    expect(grid.items.find((row) => row.store_id === longStore)?.days.map((d) => d.status)).toEqual(['MATCHED']);
  });

  it("is listed among the partner's stores", async () => {
    const stores = listOf<{ store_id: string }>(await get(`partners/${owner.partnerId}/stores`));
    expect(stores.items.map((s) => s.store_id).sort()).toEqual(['S-short', longStore, emojiStore, slashStore].sort());
  });

  it('has its store-day detail, a slash in the id included', async () => {
    for (const storeId of [longStore, emojiStore, slashStore]) {
      const detail = objectOf(await get(`store-days/${owner.partnerId}/${encodeURIComponent(storeId)}/${businessDate}`));
      expect([detail.store_id, detail.status]).toEqual([storeId, 'MATCHED']);
    }
  });

  it('is retired and reactivated by the HQ API as registered, a slash in the id included, its day still readable', async () => {
    const admin = await service.createOperator('admin');
    for (const storeId of [longStore, emojiStore, slashStore]) {
      const route = `hq/v1/partners/${owner.partnerId}/stores/${encodeURIComponent(storeId)}`;
      expect(objectOf(await service.callHost(admin, 'POST', `${route}/retire`))).toMatchObject({
        store_id: storeId,
        registration_status: 'RETIRED',
      });
      const upload = await service.call(owner, 'PUT', 'stores', { batch_id: newBatchId(), stores: [buildUsdStore(storeId)] });
      expect(upload.status, storeId).toBe(403);
      const day = await service.call(owner, 'GET', `daily-close/${encodeURIComponent(storeId)}/${businessDate}`);
      expect([day.status, (day.body as { status?: string }).status]).toEqual([200, 'MATCHED']);
      expect(objectOf(await service.callHost(admin, 'POST', `${route}/reactivate`))).toMatchObject({
        store_id: storeId,
        registration_status: 'ACTIVE',
      });
    }
    const stores = listOf<{ store_id: string; registration_status: string }>(await get(`partners/${owner.partnerId}/stores`));
    expect(stores.items.map((s) => s.registration_status)).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE', 'ACTIVE']);
  });

  it('is named in the sales grouped by store', async () => {
    const sales = listOf<{ store_id?: string }>(
      await get(`sales?from=${businessDate}&to=${businessDate}&group_by=store&partner_id=${owner.partnerId}`),
    );
    expect(sales.items.map((s) => s.store_id)).toEqual(expect.arrayContaining([longStore, emojiStore, slashStore]));
  });

  it('names the row the store_days file of the day is written from', async () => {
    const rows = await new ReportStoreDayRepository(service.services.storage.tables.reportStoreDays).list(owner.partnerId, businessDate);
    expect(rows.map((row) => row.store_id).sort()).toEqual([longStore, emojiStore, slashStore].sort());
  });

  it('has report files under a path that decodes to the id, also where the usual encoding would be too long', async () => {
    const names = await eventually(
      () => reportNames(service.services.storage.reports),
      (listed) => listed.filter((name) => name.startsWith('sales_transactions/')).length === 3,
    );
    const storeIds = names.flatMap((name) => {
      const value = /^sales_transactions\/.*\/store_id=([^/]+)\/part-0\.parquet$/.exec(name)?.[1];
      return value === undefined ? [] : [decodePartitionValue(value)];
    });
    expect(storeIds.sort()).toEqual([longStore, emojiStore, slashStore].sort());
    for (const name of names) expect(name.length).toBeLessThanOrEqual(1024);
    const rebuilt = await service.hq('reports', 'rebuild', '--partner', owner.partnerId);
    expect(rebuilt.code, rebuilt.err.join('\n')).toBe(0);
  });
});
