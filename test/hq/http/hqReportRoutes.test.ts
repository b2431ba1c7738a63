/**
 * GET /hq/v1/sales and GET /hq/v1/unmapped over real HTTP on real storage: a partner with a mapping
 * has sales on two reconciled days; a partner without one has its codes held back. Each route must
 * say what the report totals say, page through the same items, refuse bad queries and partner keys.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDailyClose } from '../../fixtures/masterDataFixtures.js';
import { partnerWithStores, reconciled, tradeBatch, usdStore } from '../../support/httpScenario.js';
import { errorCodeOf, errorPaths } from '../../support/responseBodies.js';
import { startTestService, type TestOperator, type TestPartner, type TestService } from '../../support/startTestService.js';
import { listOf, objectOf } from '../support/hqBodies.js';

const days = ['2026-03-01', '2026-03-02'];
const recordsPerDay = 3;

let service: TestService;
let viewer: TestOperator;
let mapped: TestPartner;
let unmapped: TestPartner;

async function reconciledDays(partner: TestPartner): Promise<void> {
  for (const businessDate of days) {
    const batch = tradeBatch({ businessDate, recordCount: recordsPerDay });
    expect((await service.call(partner, 'POST', 'trade-records', batch)).status).toBe(202);
    const close = { ...buildDailyClose('USD'), batch_id: randomUUID(), business_date: businessDate };
    expect((await service.call(partner, 'POST', 'daily-close', close)).status).toBe(202);
    await reconciled(service, partner, usdStore, businessDate);
  }
}

beforeAll(async () => {
  service = await startTestService({ settings: { RECONCILE_DELAY_SECONDS: '0' } });
  viewer = await service.createOperator('viewer');
  mapped = await partnerWithStores(service, { mapping: true });
  unmapped = await partnerWithStores(service);
  await reconciledDays(mapped);
  await reconciledDays(unmapped);
});
afterAll(async () => {
  await service.stop();
});

const get = (path: string, caller: { key: string } = viewer) => service.callHost(caller, 'GET', `hq/v1/${path}`);

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

  it('refuses unknown parameters and a partner key', async () => {
    const odd = await get('unmapped?from=2026-03-01');
    expect(odd.status).toBe(400);
    expect(errorPaths(odd)).toEqual(['/from']);
    const partnerCall = await get('unmapped', unmapped);
    expect(partnerCall.status).toBe(403);
    expect(errorCodeOf(partnerCall)).toBe('OPERATOR_KEY_REQUIRED');
  });
});
