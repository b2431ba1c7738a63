import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDailyClose, buildMappingBatch, buildProductBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { fixtureBusinessDate } from '../fixtures/tradeRecordFixtures.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { newBatchId, partnerWithStores, tradeBatch, usdStore } from '../support/httpScenario.js';
import { withValueAt } from '../support/jsonEdits.js';
import { errorOf, type ErrorDetail } from '../support/responseBodies.js';
import { anyString } from '../support/matchers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

const marker = 'ZQX-MARKER-93817';

/** Sends a request and returns the raw response text with its status and headers. */
async function raw(
  partner: TestPartner | { key: string } | null,
  method: string,
  path: string,
  body?: string,
  contentType = 'application/json',
) {
  const response = await fetch(`${service.baseUrl}/${path}`, {
    method,
    headers: { ...(partner ? { 'x-functions-key': partner.key } : {}), ...(body !== undefined ? { 'content-type': contentType } : {}) },
    body: body ?? null,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The error body shape of DESIGN §6; returns the body's `error`. */
function expectErrorShape(response: { status: number; headers: Headers; text: string }, status: number, code: string): ErrorDetail {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body: unknown = JSON.parse(response.text);
  expect(Object.keys(body as object)).toEqual(['error']);
  const error = errorOf({ status: response.status, headers: response.headers, body });
  for (const key of Object.keys(error)) expect(['code', 'message', 'request_id', 'details']).toContain(key);
  // What the service answers names its request; the host's own answers (404, 405, 413, host 401) do not.
  if ((error as Partial<ErrorDetail>).request_id !== undefined) expect(error.request_id).toBe(response.headers.get('x-request-id'));
  expect(error.code).toBe(code);
  expect(error.message.length).toBeGreaterThan(0);
  if (error.details !== undefined) {
    expect(Array.isArray(error.details)).toBe(true);
    for (const detail of error.details) {
      expect(Object.keys(detail).sort()).toEqual(['message', 'path']);
      expect(detail.path === '' || detail.path.startsWith('/')).toBe(true);
      expect(typeof detail.message).toBe('string');
    }
  }
  expect(response.text).not.toMatch(/\bat \S+\.(ts|js):\d+/); // no stack trace
  return error;
}

describe('error body shape', () => {
  it('every error code answers {"error":{"code","message","details"?}}', async () => {
    const partner = await partnerWithStores(service);
    const json = (value: unknown) => JSON.stringify(value);

    expectErrorShape(await raw(partner, 'POST', 'trade-records', '{"batch_id":'), 400, 'INVALID_PAYLOAD');
    expectErrorShape(await raw(partner, 'POST', 'trade-records', json(tradeBatch({ recordCount: 501 }))), 400, 'BATCH_TOO_LARGE');
    const mapping = { ...buildMappingBatch(), batch_id: newBatchId() };
    mapping.mappings[0]!.standard_code = 'GIVEAWAY';
    const unknownCode = expectErrorShape(
      await raw(partner, 'PUT', 'mappings/transaction-types', json(mapping)),
      400,
      'UNKNOWN_STANDARD_CODE',
    );
    expect(unknownCode.details).toEqual([{ path: '/mappings/0/standard_code', message: anyString() }]);
    expectErrorShape(await raw(partner, 'POST', 'trade-records', json(tradeBatch({ storeId: 'LAX-0404' }))), 403, 'STORE_NOT_ALLOWED');
    const revoked = await partnerWithStores(service);
    await service.hq('key', 'revoke', revoked.partnerId, revoked.keyId);
    const refused = await raw(revoked, 'GET', 'mappings/transaction-types');
    // Refused by the service while the host still holds the key; by the host (no body) after.
    if (refused.text !== '') expectErrorShape(refused, 401, 'UNAUTHORIZED');
    else expect(refused.status).toBe(401);
    expectErrorShape(await raw(partner, 'PUT', 'stores', 'x'.repeat(5 * 1024 * 1024 + 1)), 413, 'PAYLOAD_TOO_LARGE');
    expectErrorShape(await raw(partner, 'PUT', 'stores', json({ batch_id: newBatchId() }), 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE');

    const inactive = await partnerWithStores(service);
    await service.hq('partner', 'deactivate', inactive.partnerId);
    expectErrorShape(await raw(inactive, 'GET', 'reference/transaction-types'), 403, 'PARTNER_INACTIVE');

    const limited = await partnerWithStores(service);
    await service.hq('partner', 'set-rate-limit', limited.partnerId, '1');
    await raw(limited, 'POST', 'trade-records', '{}');
    const tooMany = await raw(limited, 'POST', 'trade-records', '{}');
    if (tooMany.status !== 429) {
      // The first call fell into the previous minute's window; the next one is limited.
      expect(tooMany.status).toBe(400);
      Object.assign(tooMany, await raw(limited, 'POST', 'trade-records', '{}'));
    }
    expectErrorShape(tooMany, 429, 'RATE_LIMITED');
  });

  it('points at the offending value with a JSON Pointer', async () => {
    const partner = await partnerWithStores(service);
    const batch = withValueAt(tradeBatch({ recordCount: 4 }), '/trade_records/3/items/0/quantity', 1);
    const error = expectErrorShape(await raw(partner, 'POST', 'trade-records', JSON.stringify(batch)), 400, 'INVALID_PAYLOAD');
    expect(error.details?.map((d) => d.path)).toContain('/trade_records/3/items/0/quantity');
  });

  it('lists at most 50 details and says how many more there were', async () => {
    const partner = await partnerWithStores(service);
    const batch = tradeBatch({ recordCount: 60 });
    const broken = { ...batch, trade_records: batch.trade_records.map((record) => ({ ...record, status: 'FINISHED' })) };
    const error = expectErrorShape(await raw(partner, 'POST', 'trade-records', JSON.stringify(broken)), 400, 'INVALID_PAYLOAD');
    expect(error.details).toHaveLength(50);
    expect(error.details?.[0]?.path).toBe('/trade_records/0/status');
    expect(error.message).toMatch(/\b10\b/);
  });
});

describe('no submitted value is echoed', () => {
  it('keeps the marker out of every error response', async () => {
    const partner = await partnerWithStores(service);
    const json = (value: unknown) => JSON.stringify(value);
    const cases: [string, string, string | undefined][] = [];

    cases.push(['POST', 'trade-records', json(withValueAt(tradeBatch(), '/trade_records/0/order_type', marker))]);
    const badFormat = tradeBatch();
    badFormat.trade_records[1]!.opened_at = marker;
    badFormat.trade_records[1]!.items[0]!.quantity = marker;
    cases.push(['POST', 'trade-records', json(badFormat)]);
    const badCurrency = tradeBatch();
    badCurrency.trade_records[0]!.currency = 'ZQX';
    badCurrency.trade_records[0]!.member_id = `${marker} +1 212 555 0188`;
    cases.push(['POST', 'trade-records', json(badCurrency)]);
    cases.push(['POST', 'trade-records', `{"batch_id":"${marker}",`]);
    cases.push(['POST', 'trade-records', `{"batch_id":"${marker}"}`]);
    cases.push(['POST', 'trade-records', json({ ...tradeBatch(), batch_seq: marker })]);
    cases.push(['POST', 'daily-close', json({ ...buildDailyClose('USD'), batch_id: newBatchId(), net_sales_amount: marker })]);
    cases.push(['POST', 'daily-close', json({ ...buildDailyClose('USD'), batch_id: newBatchId(), store_id: marker })]);
    cases.push(['PUT', 'stores', json({ batch_id: newBatchId(), stores: [{ ...buildUsdStore(usdStore), time_zone: marker }] })]);
    cases.push(['PUT', 'stores', json({ batch_id: newBatchId(), stores: [{ ...buildUsdStore(usdStore), store_id: marker }] })]);
    const products = withValueAt({ ...buildProductBatch(), batch_id: newBatchId() }, '/products/0/tax_category', marker);
    cases.push(['PUT', 'products', json(withValueAt(products, '/products/1/unit_price', marker))]);
    cases.push([
      'PUT',
      'mappings/transaction-types',
      json({ batch_id: newBatchId(), mappings: [{ source_code: 'X', standard_code: marker }] }),
    ]);
    cases.push([
      'PUT',
      'mappings/transaction-types',
      json({
        batch_id: newBatchId(),
        mappings: [
          { source_code: marker, standard_code: 'SALE' },
          { source_code: marker, standard_code: 'SALE' },
        ],
      }),
    ]);
    cases.push(['GET', `daily-close/${usdStore}/${marker}`, undefined]);
    cases.push(['GET', `daily-close/${marker}/${fixtureBusinessDate}`, undefined]);
    cases.push(['GET', marker, undefined]);

    for (const [method, path, body] of cases) {
      const response = await raw(partner, method, path, body);
      expect(response.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(response.text, `${method} ${path} ${body?.slice(0, 80)}`).not.toContain(marker);
      expect(response.text).not.toContain('ZQX');
    }
    const wrongKey = await raw({ key: marker }, 'GET', 'mappings/transaction-types');
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.text).not.toContain(marker);
  });
});
