/**
 * GET /hq/v1/sales and GET /hq/v1/unmapped over real HTTP on real storage: a partner with a mapping
 * has sales on two reconciled days; a partner without one has its codes held back. Each route must
 * say what the report totals say, page through the same items, refuse bad queries and partner keys.
 * The unmapped view must cost reads of the days that hold codes back only.
 */
import { randomUUID } from 'node:crypto';
import type { PipelinePolicy } from '@azure/core-rest-pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnmappedCode } from '../../../src/services/reports/UnmappedQuery.js';
import { ReportStoreDayRepository } from '../../../src/storage/ReportStoreDayRepository.js';
import { ReconciliationRepository } from '../../../src/storage/ReconciliationRepository.js';
import { pendingRunLostAfterMs } from '../../../src/services/pendingRuns.js';
import { buildDailyClose, buildMappingBatch } from '../../fixtures/masterDataFixtures.js';
import { putRow, storeDayRowWith, salesTotals } from '../../services/reports/storeDayRowBuilder.js';
import { partnerWithStores, reconciled, tradeBatch, usdStore } from '../../support/httpScenario.js';
import { errorCodeOf, errorPaths } from '../../support/responseBodies.js';
import {
  eventually,
  reconcileQueueDrained,
  startTestService,
  type TestOperator,
  type TestPartner,
  type TestService,
} from '../../support/startTestService.js';
import { listOf, objectOf } from '../support/hqBodies.js';
import { unmappedByFullScan } from '../support/unmappedByFullScan.js';

const days = ['2026-03-01', '2026-03-02'];
const recordsPerDay = 3;

let service: TestService;
let viewer: TestOperator;
let mapped: TestPartner;
let unmapped: TestPartner;

/** The emulator's answers to reads of the store-day rows table, by the path each read named. */
const storeDayReads: string[] = [];
const countStoreDayReads: PipelinePolicy = {
  name: 'count-store-day-reads',
  async sendRequest(request, next) {
    const path = decodeURIComponent(new URL(request.url).pathname);
    if (request.method === 'GET' && path.includes('/reportstoredays')) storeDayReads.push(path);
    return next(request);
  },
};

async function reconciledDays(partner: TestPartner, dates: readonly string[] = days): Promise<void> {
  for (const businessDate of dates) {
    const batch = tradeBatch({ businessDate, recordCount: recordsPerDay });
    expect((await service.call(partner, 'POST', 'trade-records', batch)).status).toBe(202);
    const close = { ...buildDailyClose('USD'), batch_id: randomUUID(), business_date: businessDate };
    expect((await service.call(partner, 'POST', 'daily-close', close)).status).toBe(202);
    await reconciled(service, partner, usdStore, businessDate);
  }
}

beforeAll(async () => {
  service = await startTestService({ settings: { RECONCILE_DELAY_SECONDS: '0' }, services: { policy: countStoreDayReads } });
  viewer = await service.createOperator('viewer');
  mapped = await partnerWithStores(service, { mapping: true });
  unmapped = await partnerWithStores(service);
  await reconciledDays(mapped);
  await reconciledDays(unmapped);
  // A reconciliation's result is stored before its files and row: wait for the rows.
  await reconcileQueueDrained(service);
});
afterAll(async () => {
  await service.stop();
});

const get = (path: string, caller: { key: string } = viewer) => service.callHost(caller, 'GET', `hq/v1/${path}`);
const storeDays = () => new ReportStoreDayRepository(service.services.storage.tables.reportStoreDays);

/** Every item of a list route, read `limit` at a time; also how many pages it took. */
async function readAll(path: string, limit: number): Promise<{ items: unknown[]; pages: number }> {
  const items: unknown[] = [];
  let continuation: string | null = null;
  let pages = 0;
  do {
    const query = `${path}&limit=${limit}${continuation === null ? '' : `&continuation=${encodeURIComponent(continuation)}`}`;
    const response = await get(query);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const page = listOf<unknown>(response);
    items.push(...page.items);
    continuation = page.continuation;
    pages += 1;
  } while (continuation !== null && pages < 50);
  return { items, pages };
}

describe('GET /hq/v1/sales', () => {
  const range = `from=${days[0] ?? ''}&to=${days[1] ?? ''}`;

  it('gives a viewer the report totals per store and day, one currency each', async () => {
    const response = await get(`sales?${range}&group_by=store,day&partner_id=${mapped.partnerId}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(objectOf(response)).toMatchObject({ from: days[0], to: days[1], group_by: ['store', 'day'], continuation: null });
    const body = listOf<Record<string, unknown>>(response);
    const expected = await service.services.salesQuery.totals({
      from: days[0] ?? '',
      to: days[1] ?? '',
      groupBy: ['store', 'day'],
      partnerId: mapped.partnerId,
    });
    expect(body.items).toEqual(expected);
    expect(body.items.map((i) => [i.partner_id, i.store_id, i.business_date, i.currency])).toEqual(
      days.map((d) => [mapped.partnerId, usdStore, d, 'USD']),
    );
    for (const item of body.items) {
      expect(item.transaction_count).toBe(recordsPerDay);
      expect(item.net_sales).toMatch(/^-?\d+\.\d{2}$/);
    }
  });

  it('holds no sales of a partner whose codes are all unmapped', async () => {
    const body = listOf(await get(`sales?${range}&group_by=partner&partner_id=${unmapped.partnerId}`));
    expect(body.items).toEqual([]);
  });

  it('pages through the same items as one page, in order', async () => {
    const path = `sales?${range}&group_by=partner,day`;
    const whole = await readAll(path, 200);
    expect(whole.pages).toBe(1);
    expect(whole.items.length).toBeGreaterThanOrEqual(2);
    const paged = await readAll(path, 1);
    expect(paged.pages).toBe(whole.items.length);
    expect(paged.items).toEqual(whole.items);
  });

  it("cuts a query's further pages from its first page's reading of the rows; a first page reads them again", async () => {
    const path = `sales?${range}&group_by=partner,store,day`;
    storeDayReads.length = 0;
    const whole = await readAll(path, 200);
    const oneReading = storeDayReads.length;
    expect(oneReading).toBeGreaterThan(0);
    storeDayReads.length = 0;
    const paged = await readAll(path, 1);
    expect(paged.pages).toBeGreaterThanOrEqual(2);
    expect(paged.items).toEqual(whole.items);
    expect(storeDayReads).toHaveLength(oneReading);
    // A first page is summed afresh: a day written since shows at once.
    await readAll(path, 1);
    expect(storeDayReads).toHaveLength(2 * oneReading);
  });

  it('cuts a further page from the summing its continuation names, never from an older one another instance kept', async () => {
    const partner = await service.createPartner({ stores: ['S-A', 'S-B'] });
    const writeRows = async (net: string, generatedAt: string) => {
      for (const storeId of ['S-A', 'S-B'])
        await putRow(storeDays(), partner.partnerId, days[0] ?? '', {
          ...storeDayRowWith(storeId, [salesTotals('USD', 'SALE', { count: 1, net })]),
          report_generated_at: generatedAt,
        });
    };
    const path = `sales?${range}&group_by=store&partner_id=${partner.partnerId}&limit=1`;
    const netOf = (response: Awaited<ReturnType<typeof get>>) => listOf<{ store_id: string; net_sales: string }>(response).items;
    await writeRows('10000', '2026-03-02T01:00:00.000Z');
    // This instance sums the query and keeps the result for its further pages.
    expect(netOf(await get(path))).toMatchObject([{ store_id: 'S-A', net_sales: '1.00' }]);

    await writeRows('90000', '2026-03-02T02:00:00.000Z');
    const storage = service.services.config.storage;
    if (storage.kind !== 'connectionString') throw new Error('the test service runs on a connection string');
    const other = await startTestService({ settings: { AzureWebJobsStorage: storage.connectionString } });
    try {
      const first = await other.callHost(viewer, 'GET', `hq/v1/${path}`);
      expect(netOf(first)).toMatchObject([{ store_id: 'S-A', net_sales: '9.00' }]);
      // The next page is asked of the first instance, which still keeps its own, older summing.
      const next = listOf(first).continuation ?? '';
      const second = await get(`${path}&continuation=${encodeURIComponent(next)}`);
      expect(netOf(second)).toMatchObject([{ store_id: 'S-B', net_sales: '9.00' }]);
    } finally {
      await other.stop();
    }
  });

  it('takes a continuation that names no summing (an earlier release wrote none) and sums its page afresh', async () => {
    const path = `sales?${range}&group_by=partner,day&limit=1`;
    const whole = await readAll(`sales?${range}&group_by=partner,day`, 200);
    const token = listOf(await get(path)).continuation ?? '';
    const rewritten = (edit: (cursor: Record<string, unknown>) => void): string => {
      const cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Record<string, unknown>;
      edit(cursor);
      return encodeURIComponent(Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url'));
    };
    storeDayReads.length = 0;
    const second = await get(`${path}&continuation=${rewritten((cursor) => delete cursor.n)}`);
    expect(listOf(second).items).toEqual(whole.items.slice(1, 2));
    expect(storeDayReads.length).toBeGreaterThan(0);
    const malformed = await get(`${path}&continuation=${rewritten((cursor) => (cursor.n = 1))}`);
    expect(errorPaths(malformed)).toEqual(['/continuation']);
  });

  it('refuses a missing or unknown group key, a range over the limit and a foreign continuation', async () => {
    const missing = await get(`sales?${range}`);
    expect(missing.status).toBe(400);
    expect(errorPaths(missing)).toEqual(['/group_by']);
    const unknown = await get(`sales?${range}&group_by=store,week`);
    expect(errorCodeOf(unknown)).toBe('INVALID_QUERY');
    expect(errorPaths(unknown)).toEqual(['/group_by']);
    const long = await get('sales?from=2026-01-01&to=2026-03-31&group_by=day');
    expect(long.status).toBe(400);
    expect(errorPaths(long)).toEqual(['/to']);
    // No data lies outside the dates a push may name.
    const outside = await get('sales?from=1999-12-31&to=9999-12-31&group_by=day');
    expect(errorCodeOf(outside)).toBe('INVALID_QUERY');
    expect(errorPaths(outside)).toEqual(['/from', '/to']);
    const token = await get(`sales?${range}&group_by=day&continuation=${Buffer.from('{"v":1}').toString('base64url')}`);
    expect(token.status).toBe(400);
    expect(errorPaths(token)).toEqual(['/continuation']);
    const limit = await get(`sales?${range}&group_by=day&limit=201`);
    expect(errorPaths(limit)).toEqual(['/limit']);
  });

  it('refuses a partner key with 403 OPERATOR_KEY_REQUIRED', async () => {
    const response = await get(`sales?${range}&group_by=day`, mapped);
    expect(response.status).toBe(403);
    expect(errorCodeOf(response)).toBe('OPERATOR_KEY_REQUIRED');
  });
});

describe('GET /hq/v1/unmapped', () => {
  it('lists the codes held back, with their days and figures per currency, as the report totals do', async () => {
    const response = await get(`unmapped?partner_id=${unmapped.partnerId}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const body = listOf<Record<string, unknown>>(response);
    expect(body.continuation).toBeNull();
    expect(body.items).toEqual(await service.services.unmappedQuery.codes(unmapped.partnerId));
    expect(body.items.length).toBeGreaterThan(0);
    const total = body.items.reduce((n, i) => n + Number(i.transaction_count), 0);
    expect(total).toBe(recordsPerDay * days.length);
    for (const item of body.items) {
      expect(item).toMatchObject({ partner_id: unmapped.partnerId, first_business_date: days[0], last_business_date: days[1] });
    }
  });

  it('says what summing every store-day row of the partner says', async () => {
    const body = listOf<UnmappedCode>(await get(`unmapped?partner_id=${unmapped.partnerId}`));
    expect(body.items).toEqual(await unmappedByFullScan(storeDays(), unmapped.partnerId));
  });

  it('reads only the store-days that hold codes back, each once by its key, however many others the partner has', async () => {
    // Two years of a store's days with every code mapped, written as the report writer writes them
    // (no code held back, so nothing noted), beside the two reconciled days that hold codes back.
    const quietDays = Array.from({ length: 730 }, (_, i) => new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString().slice(0, 10));
    const repository = storeDays();
    for (let i = 0; i < quietDays.length; i += 50) {
      await Promise.all(
        quietDays
          .slice(i, i + 50)
          .map((date) =>
            putRow(
              repository,
              unmapped.partnerId,
              date,
              storeDayRowWith(usdStore, [salesTotals('USD', 'SALE', { count: 3, net: '30000' })]),
            ),
          ),
      );
    }
    storeDayReads.length = 0;
    const response = await get(`unmapped?partner_id=${unmapped.partnerId}`);
    const reads = [...storeDayReads];
    expect(response.status).toBe(200);
    // Point reads (PartitionKey and RowKey in the path) of the two noted days; no listing of the table.
    expect(reads).toHaveLength(days.length);
    for (const read of reads) expect(read).toMatch(/\/reportstoredays\(PartitionKey='[^']+',RowKey='[^']+'\)$/);
    expect(reads.filter((read) => days.some((d) => read.includes(d)))).toHaveLength(days.length);
    expect(listOf<UnmappedCode>(response).items).toEqual(await unmappedByFullScan(repository, unmapped.partnerId));
  });

  it('lists a code that a report rebuild holds back under a mapping that no longer maps it', async () => {
    const remapped = await partnerWithStores(service, { mapping: true });
    await reconciledDays(remapped, [days[0] ?? '']);
    await reconcileQueueDrained(service);
    expect(listOf(await get(`unmapped?partner_id=${remapped.partnerId}`)).items).toEqual([]);
    // The mapping no longer maps '01': no day is re-run (none was noted), but a rebuild of the
    // day's files holds its transactions back, and the view must find them.
    const withoutSale = { ...buildMappingBatch(), batch_id: randomUUID() };
    const upload = await service.call(remapped, 'PUT', 'mappings/transaction-types', {
      ...withoutSale,
      mappings: withoutSale.mappings.filter((m) => m.source_code !== '01'),
    });
    expect(upload.status).toBe(202);
    const rebuilt = await service.hq('reports', 'rebuild', '--partner', remapped.partnerId);
    expect(rebuilt.code).toBe(0);
    // The files now hold '01' back, while the day's result still counts it as revenue: said, with what to do.
    expect(rebuilt.err).toEqual([
      `[1/1] ${remapped.partnerId} ${usdStore} ${days[0]}: written; its sales files differ from its last reconciliation (a code mapped anew): run reconciliation rerun`,
    ]);
    expect(rebuilt.out[0]).toBe('1 of 1 reconciled store-day(s) rewritten, 1 differ from their reconciliation');
    const body = listOf<UnmappedCode>(await get(`unmapped?partner_id=${remapped.partnerId}`));
    expect(body.items.map((i) => [i.source_transaction_type, i.transaction_count])).toEqual([['01', recordsPerDay]]);
    expect(body.items).toEqual(await unmappedByFullScan(storeDays(), remapped.partnerId));
  });

  it('has a rebuild of a day awaiting its run say when the run is due, not that a mapping changed', async () => {
    const late = await partnerWithStores(service, { mapping: true });
    const day = days[0] ?? '';
    await reconciledDays(late, [day]);
    await reconcileQueueDrained(service);
    // What a late batch notes before it sends its run's message (not sent here, so the run stays due).
    const dueAt = new Date(Date.now() + 600_000).toISOString();
    const results = new ReconciliationRepository(service.services.storage.tables.reconciliations);
    const noted = await results.notePendingRun(
      late.partnerId,
      usdStore,
      day,
      { runId: `late-${randomUUID()}`, dueAt },
      {
        now: new Date(),
        lostAfterMs: pendingRunLostAfterMs,
      },
    );
    expect(noted).toBeDefined();
    const rebuilt = await service.hq('reports', 'rebuild', '--partner', late.partnerId);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.err).toEqual([
      `[1/1] ${late.partnerId} ${usdStore} ${day}: written; a reconciliation run is due at ${dueAt}, whose result will follow these files`,
    ]);
    expect(rebuilt.out[0]).toBe('1 of 1 reconciled store-day(s) rewritten');
  });

  it('drops the codes a mapping upload maps once their days are reconciled again', async () => {
    const later = await partnerWithStores(service);
    await reconciledDays(later, [days[0] ?? '']);
    await reconcileQueueDrained(service);
    expect(listOf(await get(`unmapped?partner_id=${later.partnerId}`)).items).not.toEqual([]);
    const mapping = await service.call(later, 'PUT', 'mappings/transaction-types', { ...buildMappingBatch(), batch_id: randomUUID() });
    expect(mapping.status).toBe(202);
    // Re-run in the background: once the day's row holds nothing back, the view holds nothing either.
    const rows = await eventually(
      () => unmappedByFullScan(storeDays(), later.partnerId),
      (codes) => codes.length === 0,
    );
    expect(rows).toEqual([]);
    expect(listOf(await get(`unmapped?partner_id=${later.partnerId}`)).items).toEqual([]);
  });

  it('holds nothing for the partner whose codes are mapped', async () => {
    expect(listOf(await get(`unmapped?partner_id=${mapped.partnerId}`)).items).toEqual([]);
  });

  it('pages through the same items as one page', async () => {
    const path = `unmapped?partner_id=${unmapped.partnerId}`;
    const whole = await readAll(path, 200);
    const paged = await readAll(path, 1);
    expect(paged.items).toEqual(whole.items);
    expect(paged.pages).toBe(whole.items.length);
  });

  it('pages across partners through the same items as one page, the last page saying it is the last', async () => {
    const whole = await readAll('unmapped?', 200);
    expect(whole.pages).toBe(1);
    const partners = new Set(whole.items.map((i) => (i as UnmappedCode).partner_id));
    expect(partners.size).toBeGreaterThanOrEqual(2);
    for (const limit of [1, 2, whole.items.length]) {
      const paged = await readAll('unmapped?', limit);
      expect(paged.items).toEqual(whole.items);
      expect(paged.pages).toBe(Math.ceil(whole.items.length / limit));
    }
  });

  it('refuses unknown parameters and a partner key', async () => {
    const odd = await get('unmapped?from=2026-03-01');
    expect(odd.status).toBe(400);
    expect(errorPaths(odd)).toEqual(['/from']);
    const partnerCall = await get('unmapped', unmapped);
    expect(partnerCall.status).toBe(403);
    expect(errorCodeOf(partnerCall)).toBe('OPERATOR_KEY_REQUIRED');
  });
});
