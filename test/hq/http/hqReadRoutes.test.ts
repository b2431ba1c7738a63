/**
 * The HQ API's read routes over real HTTP on real storage: the grid with its statuses, overdue
 * cells, filters and paging; one store-day in detail; batches not committed; partners, stores, keys;
 * webhook deliveries given up.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchLedger } from '../../../src/storage/BatchLedger.js';
import { FailedBatchIndex } from '../../../src/storage/FailedBatchIndex.js';
import { PendingBatchIndex } from '../../../src/storage/PendingBatchIndex.js';
import { ReconciliationRepository } from '../../../src/storage/ReconciliationRepository.js';
import { pendingRunLostAfterMs } from '../../../src/services/pendingRuns.js';
import { StoreRegistrationRepository } from '../../../src/storage/StoreRegistrationRepository.js';
import { encodeKeyPart } from '../../../src/storage/tableKey.js';
import { TradeRecordIndex } from '../../../src/storage/TradeRecordIndex.js';
import { WebhookDeadLetterRepository } from '../../../src/storage/WebhookDeadLetterRepository.js';
import { buildDailyClose } from '../../fixtures/masterDataFixtures.js';
import { fixtureBusinessDate } from '../../fixtures/tradeRecordFixtures.js';
import { jpyStore, partnerWithStores, reconciled, tradeBatch, usdStore } from '../../support/httpScenario.js';
import { anyString } from '../../support/matchers.js';
import { errorCodeOf, errorPaths } from '../../support/responseBodies.js';
import { startTestService, type TestOperator, type TestPartner, type TestService } from '../../support/startTestService.js';
import { dayOf, gridOf, listOf, objectOf, type GridRow } from '../support/hqBodies.js';

let service: TestService;
let viewer: TestOperator;
let partner: TestPartner;

/** 2026-03-01 MATCHED, 2026-03-02 MISMATCHED (batch 2 of 2 missing), 2026-03-03 nothing. */
const matchedDate = fixtureBusinessDate;
const mismatchedDate = '2026-03-02';
const emptyDate = '2026-03-03';
/** Before the first date's close falls due, so every date of the fixtures expects a close. */
const registeredAt = new Date('2026-03-01T00:00:00Z');

beforeAll(async () => {
  service = await startTestService({ settings: { RECONCILE_DELAY_SECONDS: '0' } });
  viewer = await service.createOperator('viewer');
  partner = await partnerWithStores(service, { mapping: true, registeredAt });
  expect((await service.call(partner, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
  expect((await service.call(partner, 'POST', 'daily-close', { ...buildDailyClose('USD'), batch_id: randomUUID() })).status).toBe(202);
  expect((await service.call(partner, 'POST', 'trade-records', tradeBatch({ businessDate: mismatchedDate }))).status).toBe(202);
  const close = { ...buildDailyClose('USD'), batch_id: randomUUID(), business_date: mismatchedDate, batch_count: 2, trade_record_count: 4 };
  expect((await service.call(partner, 'POST', 'daily-close', close)).status).toBe(202);
  expect((await reconciled(service, partner, usdStore, matchedDate)).status).toBe('MATCHED');
  expect((await reconciled(service, partner, usdStore, mismatchedDate)).status).toBe('MISMATCHED');
});
afterAll(async () => {
  await service.stop();
});

const get = (path: string, caller: { key: string } = viewer) => service.callHost(caller, 'GET', `hq/v1/${path}`);
const grid = async (query: string) => gridOf(await get(`store-days?${query}`));
const row = (rows: GridRow[], storeId: string): GridRow | undefined => rows.find((r) => r.store_id === storeId);
/** Today's UTC date moved by `days`. */
const daysFromToday = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('GET /hq/v1/store-days', () => {
  it('shows every registered store × date, with NOT_RECEIVED for days without a close, and counts', async () => {
    const body = await grid(`from=${matchedDate}&to=${emptyDate}&partner_id=${partner.partnerId}`);
    expect(body.items.map((r) => r.store_id)).toEqual([usdStore, jpyStore]);
    expect(row(body.items, usdStore)?.days.map((d) => [d.business_date, d.status, d.overdue])).toEqual([
      [matchedDate, 'MATCHED', false],
      [mismatchedDate, 'MISMATCHED', false],
      [emptyDate, 'NOT_RECEIVED', true],
    ]);
    expect(row(body.items, usdStore)?.days[1]?.differences).toEqual(['trade_record_count']);
    expect(row(body.items, jpyStore)?.days.map((d) => d.status)).toEqual(['NOT_RECEIVED', 'NOT_RECEIVED', 'NOT_RECEIVED']);
    expect(body.counts).toEqual({ NOT_RECEIVED: 4, RECEIVED: 0, MATCHED: 1, MISMATCHED: 1, overdue: 4 });
    expect(body.continuation).toBeNull();
    // New York, 04:00 the next day, plus six hours: 2026-03-04T09:00Z + 6 h.
    expect(row(body.items, usdStore)?.days[2]?.close_due_at).toBe('2026-03-04T15:00:00.000Z');
    expect(row(body.items, usdStore)).toMatchObject({
      store_name: 'Broadway & 42nd',
      currency: 'USD',
      time_zone: 'America/New_York',
      active: true,
    });
  });

  it('is not overdue before the close is due', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const body = await grid(`from=${today}&to=${today}&partner_id=${partner.partnerId}`);
    expect(body.items.flatMap((r) => r.days.map((d) => [d.status, d.overdue]))).toEqual([
      ['NOT_RECEIVED', false],
      ['NOT_RECEIVED', false],
    ]);
  });

  it('filters by status and by overdue, dropping rows left empty', async () => {
    const mismatched = await grid(`from=${matchedDate}&to=${emptyDate}&partner_id=${partner.partnerId}&status=MISMATCHED`);
    expect(mismatched.items.map((r) => [r.store_id, r.days.map((d) => d.business_date)])).toEqual([[usdStore, [mismatchedDate]]]);
    expect(mismatched.counts.MISMATCHED).toBe(1);
    const overdue = await grid(`from=${matchedDate}&to=${emptyDate}&partner_id=${partner.partnerId}&overdue=true`);
    expect(overdue.items.map((r) => [r.store_id, r.days.length])).toEqual([
      [usdStore, 1],
      [jpyStore, 3],
    ]);
  });

  it('pages by store with a continuation token', async () => {
    const query = `from=${matchedDate}&to=${emptyDate}&partner_id=${partner.partnerId}&limit=1`;
    const first = await grid(query);
    expect(first.items.map((r) => r.store_id)).toEqual([usdStore]);
    expect(first.continuation).toEqual(anyString());
    const token = encodeURIComponent(first.continuation ?? '');
    // The filters in another order and another page size still continue the same list.
    const second = await grid(`limit=5&partner_id=${partner.partnerId}&to=${emptyDate}&from=${matchedDate}&continuation=${token}`);
    expect(second.items.map((r) => r.store_id)).toEqual([jpyStore]);
    expect(second.continuation).toBeNull();
    // Another filter or another route would skip or end the list silently: the token is refused.
    for (const elsewhere of [
      `store-days?from=${matchedDate}&to=${emptyDate}&limit=1&continuation=${token}`,
      `store-days?from=${mismatchedDate}&to=${emptyDate}&partner_id=${partner.partnerId}&limit=1&continuation=${token}`,
      `store-days?${query}&status=MATCHED&continuation=${token}`,
      `partners/${partner.partnerId}/stores?limit=1&continuation=${token}`,
    ]) {
      const refused = await get(elsewhere);
      expect(refused.status, elsewhere).toBe(400);
      expect(errorCodeOf(refused)).toBe('INVALID_QUERY');
      expect(errorPaths(refused)).toEqual(['/continuation']);
    }
  });

  it('refuses bad queries with 400 INVALID_QUERY naming the parameter', async () => {
    for (const [query, path] of [
      [`to=${emptyDate}`, '/from'],
      [`from=2026-02-30&to=${emptyDate}`, '/from'],
      [`from=${emptyDate}&to=${matchedDate}`, '/to'],
      ['from=2026-01-01&to=2026-03-05', '/to'],
      [`from=${matchedDate}&to=${emptyDate}&status=LOST`, '/status'],
      [`from=${matchedDate}&to=${emptyDate}&limit=0`, '/limit'],
      [`from=${matchedDate}&to=${emptyDate}&limit=201`, '/limit'],
      [`from=${matchedDate}&to=${emptyDate}&continuation=garbage`, '/continuation'],
      [`from=${matchedDate}&to=${emptyDate}&form=x`, '/form'],
      [`from=${matchedDate}&from=${matchedDate}&to=${emptyDate}`, '/from'],
      // Outside the dates a push may name, where no data lies and no due time can be written.
      ['from=1999-12-31&to=2000-01-01', '/from'],
      [`from=${daysFromToday(1)}&to=${daysFromToday(4)}`, '/to'],
      ['from=9999-12-30&to=9999-12-31', '/to'],
    ] as const) {
      const response = await get(`store-days?${query}`);
      expect(response.status, query).toBe(400);
      expect(errorCodeOf(response)).toBe('INVALID_QUERY');
      expect(errorPaths(response), query).toContain(path);
    }
    const unknown = await get(`store-days?from=${matchedDate}&to=${emptyDate}&partner_id=nobody-${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(errorCodeOf(unknown)).toBe('PARTNER_NOT_FOUND');
  });

  it('expects no close for a day that fell due before its store was registered', async () => {
    // Registered after the close of 03-02 fell due (New York: 03-03 04:00 local + 6 h = 15:00Z), before 03-03's.
    const late = await partnerWithStores(service, { mapping: true, registeredAt: new Date('2026-03-03T16:00:00Z') });
    expect((await service.call(late, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    expect((await service.call(late, 'POST', 'daily-close', { ...buildDailyClose('USD'), batch_id: randomUUID() })).status).toBe(202);
    expect((await reconciled(service, late, usdStore, matchedDate)).status).toBe('MATCHED');

    const body = await grid(`from=${matchedDate}&to=${emptyDate}&partner_id=${late.partnerId}`);
    // A close sent for an earlier day still shows; a missing one is not asked for.
    expect(row(body.items, usdStore)?.days.map((d) => [d.business_date, d.status, d.overdue])).toEqual([
      [matchedDate, 'MATCHED', false],
      [emptyDate, 'NOT_RECEIVED', true],
    ]);
    expect(row(body.items, jpyStore)?.days.map((d) => d.business_date)).toEqual([emptyDate]);
    expect(body.counts).toEqual({ NOT_RECEIVED: 2, RECEIVED: 0, MATCHED: 1, MISMATCHED: 0, overdue: 2 });
    const before = dayOf(await get(`store-days/${late.partnerId}/${usdStore}/${mismatchedDate}`));
    expect([before.status, before.overdue]).toEqual(['NOT_RECEIVED', false]);
    const after = dayOf(await get(`store-days/${late.partnerId}/${usdStore}/${emptyDate}`));
    expect([after.status, after.overdue]).toEqual(['NOT_RECEIVED', true]);
  });

  it("leaves out an inactive partner's stores on days without a close", async () => {
    const other = await partnerWithStores(service, { registeredAt });
    const admin = await service.createOperator('admin');
    expect((await service.callHost(admin, 'POST', `hq/v1/partners/${other.partnerId}/deactivate`)).status).toBe(200);
    const body = await grid(`from=${matchedDate}&to=${emptyDate}&partner_id=${other.partnerId}`);
    expect(body.items).toEqual([]);
    expect((await service.callHost(admin, 'POST', `hq/v1/partners/${other.partnerId}/activate`)).status).toBe(200);
    expect((await grid(`from=${matchedDate}&to=${emptyDate}&partner_id=${other.partnerId}`)).items).toHaveLength(2);
  });
});

describe('a retired store in the grid and the detail', () => {
  it('shows only the days with a close, and expects no close that fell due after the retirement', async () => {
    const other = await partnerWithStores(service, { mapping: true, registeredAt });
    expect((await service.call(other, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    expect((await service.call(other, 'POST', 'daily-close', { ...buildDailyClose('USD'), batch_id: randomUUID() })).status).toBe(202);
    expect((await reconciled(service, other, usdStore, matchedDate)).status).toBe('MATCHED');
    // Retired after the close of 03-02 fell due (03-03 15:00Z), before 03-03's (03-04 15:00Z).
    const registrations = new StoreRegistrationRepository(service.services.storage.tables.storeRegistrations);
    await registrations.setStatus(other.partnerId, usdStore, 'RETIRED', new Date('2026-03-03T16:00:00Z'));

    const body = await grid(`from=${matchedDate}&to=${emptyDate}&partner_id=${other.partnerId}`);
    expect(row(body.items, usdStore)).toMatchObject({ active: false });
    expect(row(body.items, usdStore)?.days.map((d) => [d.business_date, d.status])).toEqual([[matchedDate, 'MATCHED']]);
    expect(row(body.items, jpyStore)?.days.map((d) => d.status)).toEqual(['NOT_RECEIVED', 'NOT_RECEIVED', 'NOT_RECEIVED']);
    const dueBefore = dayOf(await get(`store-days/${other.partnerId}/${usdStore}/${mismatchedDate}`));
    expect([dueBefore.status, dueBefore.overdue]).toEqual(['NOT_RECEIVED', true]);
    const dueAfter = dayOf(await get(`store-days/${other.partnerId}/${usdStore}/${emptyDate}`));
    expect([dueAfter.status, dueAfter.overdue]).toEqual(['NOT_RECEIVED', false]);

    await registrations.setStatus(other.partnerId, usdStore, 'ACTIVE', new Date());
    const again = await grid(`from=${matchedDate}&to=${emptyDate}&partner_id=${other.partnerId}`);
    expect(row(again.items, usdStore)?.days.map((d) => [d.status, d.overdue])).toEqual([
      ['MATCHED', false],
      ['NOT_RECEIVED', true],
      ['NOT_RECEIVED', true],
    ]);
  });
});

describe('GET /hq/v1/store-days/{partner_id}/{store_id}/{business_date}', () => {
  it('shows the close, expected vs actual vs difference, the diagnosis and the batches received', async () => {
    const day = dayOf(await get(`store-days/${partner.partnerId}/${usdStore}/${mismatchedDate}`));
    expect(day).toMatchObject({ status: 'MISMATCHED', overdue: false, currency: 'USD' });
    expect(day.close).toMatchObject({ batch_count: 2, currency: 'USD' });
    expect(day.comparison.find((c) => c.field === 'trade_record_count')).toEqual({
      field: 'trade_record_count',
      expected: '4',
      actual: '3',
      difference: '-1',
      differs: true,
    });
    expect(day.comparison.find((c) => c.field === 'net_sales_amount')).toEqual({
      field: 'net_sales_amount',
      expected: '38.91',
      actual: '38.91',
      difference: '0.00',
      differs: false,
    });
    expect(day.comparison).toHaveLength(7);
    expect(day.diagnosis).toMatchObject({ missing_batch_seqs: [2] });
    expect(day.batches).toEqual([
      { batch_id: anyString(), batch_seq: 1, received_at: anyString(), record_count: 3, after_close: false, failed: false },
    ]);
  });

  it("says when the run a late batch scheduled is due while it is awaited, with the last run's figures until then", async () => {
    const at = (path: string) => get(`store-days/${partner.partnerId}/${usdStore}/${path}`);
    expect(dayOf(await at(matchedDate)).next_run_due_at).toBeNull();
    const results = new ReconciliationRepository(service.services.storage.tables.reconciliations);
    const lost = { now: new Date(), lostAfterMs: pendingRunLostAfterMs };
    const note = async (dueInMs: number): Promise<string> => {
      const dueAt = new Date(Date.now() + dueInMs).toISOString();
      const run = { runId: `late-${randomUUID()}`, dueAt };
      expect(await results.notePendingRun(partner.partnerId, usdStore, matchedDate, run, lost)).toBeDefined();
      return dueAt;
    };

    // A note whose run is long overdue was lost with its message: nothing is awaited.
    await note(-pendingRunLostAfterMs - 60_000);
    expect(dayOf(await at(matchedDate)).next_run_due_at).toBeNull();

    // What a late batch writes before it sends its message (here the message is never sent).
    const dueAt = await note(600_000);
    const day = dayOf(await at(matchedDate));
    expect(day).toMatchObject({ status: 'MATCHED', next_run_due_at: dueAt, checked_at: anyString() });
    expect(day.actual).not.toBeNull();
  });

  it('marks a batch that ended FAILED among the batches received', async () => {
    const failedDate = '2026-03-04';
    const batch = tradeBatch({ businessDate: failedDate });
    expect((await service.call(partner, 'POST', 'trade-records', batch)).status).toBe(202);
    // What the failure path writes when storage refuses a batch part-way (tested end to end in failedBatches).
    const index = new TradeRecordIndex(service.services.storage.tables.tradeRecords);
    const [received] = await index.listDayBatches(partner.partnerId, usdStore, failedDate, 10);
    if (received === undefined) throw new Error('the batch row is missing');
    await index.markBatchFailed(partner.partnerId, usdStore, failedDate, received);
    const day = dayOf(await get(`store-days/${partner.partnerId}/${usdStore}/${failedDate}`));
    expect(day.batches).toEqual([
      { batch_id: batch.batch_id, batch_seq: 1, received_at: anyString(), record_count: 3, after_close: false, failed: true },
    ]);
  });

  it('answers NOT_RECEIVED for a registered store-day without a close', async () => {
    const day = dayOf(await get(`store-days/${partner.partnerId}/${jpyStore}/${emptyDate}`));
    expect(day).toMatchObject({ status: 'NOT_RECEIVED', overdue: true, close: null, expected: null, actual: null, diagnosis: null });
    expect(day.batches).toEqual([]);
  });

  it('refuses an unknown partner, an unregistered store and a bad date', async () => {
    const cases = [
      [`store-days/nobody-${randomUUID()}/${usdStore}/${matchedDate}`, 404, 'PARTNER_NOT_FOUND'],
      [`store-days/${partner.partnerId}/LON-9999/${matchedDate}`, 404, 'STORE_NOT_FOUND'],
      [`store-days/${partner.partnerId}/${usdStore}/2026-13-01`, 400, 'INVALID_QUERY'],
      [`store-days/${partner.partnerId}/${usdStore}/1999-12-31`, 400, 'INVALID_QUERY'],
      [`store-days/${partner.partnerId}/${usdStore}/9999-12-31`, 400, 'INVALID_QUERY'],
    ] as const;
    for (const [path, status, code] of cases) {
      const response = await get(path);
      expect(response.status, path).toBe(status);
      expect(errorCodeOf(response)).toBe(code);
    }
    // The last date a push may name is answered, its close not yet due.
    const latest = dayOf(await get(`store-days/${partner.partnerId}/${usdStore}/${daysFromToday(2)}`));
    expect(latest).toMatchObject({ status: 'NOT_RECEIVED', overdue: false });
  });
});

describe('GET /hq/v1/batches', () => {
  it('lists pending and failed batches, paged', async () => {
    const tables = service.services.storage.tables;
    const ledger = new BatchLedger(tables.batchLedger);
    const pending = [randomUUID(), randomUUID(), randomUUID()];
    for (const batchId of pending) {
      // As a push writes them: the entry and the pending index's row.
      const entry = await ledger.createPending(partner.partnerId, batchId, 'tradeRecords', 'hash', new Date());
      await new PendingBatchIndex(tables.pendingBatches).add({ partnerId: partner.partnerId, batchId, createdAt: entry!.createdAt });
    }
    const failedId = randomUUID();
    // A batch storage refused ends FAILED: noted in the failed index, then written as the ledger stores it.
    await new FailedBatchIndex(tables.failedBatches).add({
      partnerId: partner.partnerId,
      batchId: failedId,
      createdAt: '2026-03-02T10:00:00.000Z',
    });
    await tables.batchLedger.createEntity({
      partitionKey: encodeKeyPart(partner.partnerId),
      rowKey: encodeKeyPart(failedId),
      state: 'FAILED',
      kind: 'dailyClose',
      bodyHash: createHash('sha256').update(failedId).digest('hex'),
      createdAt: '2026-03-02T10:00:00.000Z',
      failedAt: '2026-03-02T10:00:01.000Z',
      failure: 'storage refused the content: 400 EntityTooLarge',
    });

    // Pages of at most 2, followed to the end: a page may hold fewer (storage ends a page of the
    // index at its partitions' edges), never more.
    const listed: { batch_id: string; kind: string; state: string }[] = [];
    let continuation: string | null | undefined;
    let pages = 0;
    do {
      const page = listOf<{ batch_id: string; kind: string; state: string }>(
        await get(
          `batches?state=pending&partner_id=${partner.partnerId}&limit=2${continuation ? `&continuation=${encodeURIComponent(continuation)}` : ''}`,
        ),
      );
      expect(page.items.length).toBeLessThanOrEqual(2);
      listed.push(...page.items);
      continuation = page.continuation;
      pages += 1;
    } while (continuation && pages < 20);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(listed.map((b) => b.batch_id).sort()).toEqual([...pending].sort());
    expect(listed[0]).toMatchObject({ partner_id: partner.partnerId, kind: 'trade-records', state: 'PENDING', failed_at: null });

    const failed = listOf(await get(`batches?state=failed&partner_id=${partner.partnerId}`));
    expect(failed.items).toEqual([
      {
        partner_id: partner.partnerId,
        batch_id: failedId,
        kind: 'daily-close',
        state: 'FAILED',
        created_at: '2026-03-02T10:00:00.000Z',
        failed_at: '2026-03-02T10:00:01.000Z',
        failure: 'storage refused the content: 400 EntityTooLarge',
      },
    ]);
    expect(errorPaths(await get('batches?state=lost'))).toContain('/state');
  });
});

describe('partners, stores, keys', () => {
  it('lists partners with their effective rate limit, paged', async () => {
    const all = listOf<{ partner_id: string }>(await get('partners?limit=200'));
    expect(all.items.map((p) => p.partner_id)).toContain(partner.partnerId);
    const one = objectOf(await get(`partners/${partner.partnerId}`));
    expect(one).toEqual({
      partner_id: partner.partnerId,
      name: partner.partnerId,
      status: 'ACTIVE',
      rate_limit_per_minute: 100000,
      rate_limit_is_default: true,
      created_at: anyString(),
    });
    const first = listOf<{ partner_id: string }>(await get('partners?limit=1'));
    const second = listOf<{ partner_id: string }>(
      await get(`partners?limit=1&continuation=${encodeURIComponent(first.continuation ?? '')}`),
    );
    expect(second.items[0]?.partner_id).not.toBe(first.items[0]?.partner_id);
    expect(second.items[0]?.partner_id.localeCompare(first.items[0]?.partner_id ?? '')).toBe(1);
  });

  it("lists a partner's registered stores with their master data", async () => {
    const stores = listOf(await get(`partners/${partner.partnerId}/stores`));
    expect(stores.items).toEqual([
      {
        store_id: usdStore,
        registered_at: anyString(),
        store_name: 'Broadway & 42nd',
        currency: 'USD',
        time_zone: 'America/New_York',
        workday_start: '04:00',
        status: 'ACTIVE',
        registration_status: 'ACTIVE',
        retired_at: null,
      },
      expect.objectContaining({ store_id: jpyStore, currency: 'JPY' }),
    ]);
  });

  it("lists a partner's keys without the key or its hash", async () => {
    const response = await get(`partners/${partner.partnerId}/keys`);
    const keys = listOf(response);
    expect(keys.items).toEqual([{ key_id: partner.keyId, status: 'ACTIVE', created_at: anyString(), expires_at: null, revoked_at: null }]);
    const text = JSON.stringify(response.body);
    expect(text).not.toContain(partner.key);
    expect(text).not.toContain(createHash('sha256').update(partner.key).digest('hex'));
  });

  it('answers 404 PARTNER_NOT_FOUND for an unknown partner', async () => {
    for (const path of ['', '/stores', '/keys', '/payment-directions']) {
      const response = await get(`partners/nobody-${randomUUID()}${path}`);
      expect(response.status, path).toBe(404);
      expect(errorCodeOf(response)).toBe('PARTNER_NOT_FOUND');
    }
  });

  it('answers 404 PARTNER_NOT_FOUND when a list is filtered by an unknown partner, not an empty list', async () => {
    const nobody = `nobody-${randomUUID()}`;
    for (const path of [
      `batches?state=pending&partner_id=${nobody}`,
      `sales?from=${matchedDate}&to=${matchedDate}&group_by=store&partner_id=${nobody}`,
      `unmapped?partner_id=${nobody}`,
    ]) {
      const response = await get(path);
      expect([response.status, errorCodeOf(response)], path).toEqual([404, 'PARTNER_NOT_FOUND']);
    }
    expect((await get(`batches?state=pending&partner_id=${partner.partnerId}`)).status).toBe(200);
  });

  it('checks the whole query before it looks the filter partner up', async () => {
    const nobody = `nobody-${randomUUID()}`;
    for (const [path, problem] of [
      [`batches?state=pending&partner_id=${nobody}&continuation=not-a-token`, '/continuation'],
      [`unmapped?partner_id=${nobody}&continuation=not-a-token`, '/continuation'],
      [`sales?from=${matchedDate}&to=${matchedDate}&group_by=store&partner_id=${nobody}&continuation=not-a-token`, '/continuation'],
      [`sales?from=2026-03-10&to=2026-03-01&group_by=day&partner_id=${nobody}`, '/to'],
    ] as const) {
      const response = await get(path);
      expect([response.status, errorCodeOf(response)], path).toEqual([400, 'INVALID_QUERY']);
      expect(errorPaths(response), path).toEqual([problem]);
    }
  });
});

describe('GET /hq/v1/webhook-failures', () => {
  it('lists deliveries given up newest first, one partner or all, with the origin alone, and marks a list cut short', async () => {
    const other = await service.createPartner({ stores: [usdStore] });
    const deadLetters = new WebhookDeadLetterRepository(service.services.storage.tables.webhookDeadLetters);
    const given = (partnerId: string, eventId: string, day: string, targetOrigin = 'https://hooks.example.com') =>
      deadLetters.add({
        partnerId,
        eventId,
        eventType: 'reconciliation.completed',
        targetOrigin,
        attempts: 8,
        lastErrorClass: 'HTTP_ERROR',
        lastStatus: 503,
        createdAt: `2026-03-${day}T00:00:00.000Z`,
        firstAttemptAt: `2026-03-${day}T00:00:01.000Z`,
        lastAttemptAt: `2026-03-${day}T00:59:00.000Z`,
        deadLetteredAt: `2026-03-${day}T01:00:00.000Z`,
      });
    await given(partner.partnerId, 'evt_older', '02');
    // A record written with more than an origin is still shown with its origin alone.
    await given(partner.partnerId, 'evt_newer', '04', 'https://user:pw@hooks.example.com:8443/path?token=t');
    await given(other.partnerId, 'evt_other', '03');

    const mine = objectOf(await get(`webhook-failures?partner_id=${partner.partnerId}`));
    expect(mine).toEqual({
      items: [
        {
          partner_id: partner.partnerId,
          event_id: 'evt_newer',
          event_type: 'reconciliation.completed',
          target_origin: 'https://hooks.example.com:8443',
          attempts: 8,
          last_error_class: 'HTTP_ERROR',
          last_status: 503,
          created_at: '2026-03-04T00:00:00.000Z',
          first_attempt_at: '2026-03-04T00:00:01.000Z',
          last_attempt_at: '2026-03-04T00:59:00.000Z',
          dead_lettered_at: '2026-03-04T01:00:00.000Z',
        },
        expect.objectContaining({ event_id: 'evt_older' }),
      ],
    });
    expect(JSON.stringify(mine)).not.toMatch(/pw@|token=|\/path/);

    const everyone = objectOf(await get('webhook-failures?limit=500'));
    const events = (everyone.items as { event_id: string }[]).map((f) => f.event_id);
    expect(events.filter((id) => id.startsWith('evt_'))).toEqual(['evt_newer', 'evt_other', 'evt_older']);

    const cut = objectOf(await get(`webhook-failures?partner_id=${partner.partnerId}&limit=1`));
    expect(cut).toEqual({ items: [expect.objectContaining({ event_id: 'evt_newer' })], items_truncated: true });
  });

  it('refuses an unknown partner and a limit out of range with their codes', async () => {
    const unknown = await get(`webhook-failures?partner_id=nobody-${randomUUID()}`);
    expect([unknown.status, errorCodeOf(unknown)]).toEqual([404, 'PARTNER_NOT_FOUND']);
    for (const limit of ['0', '501', 'many']) {
      const response = await get(`webhook-failures?limit=${limit}`);
      expect([response.status, errorCodeOf(response)], limit).toEqual([400, 'INVALID_QUERY']);
      expect(errorPaths(response), limit).toEqual(['/limit']);
    }
  });
});
