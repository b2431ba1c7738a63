import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { fixtureBusinessDate } from '../fixtures/tradeRecordFixtures.js';
import { startTestService, type TestService } from '../support/startTestService.js';
import { newBatchId, tradeBatch } from '../support/httpScenario.js';
import { withValueAt } from '../support/jsonEdits.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

const accessLine = /^INFO \[(\w+)\] (GET|POST|PUT) (\/\S+) (\d{3}) (\d+)ms partner=(\S+) key_id=(\S+) batch_id=(\S+) request_id=(\S+)$/;

describe('access log', () => {
  it('writes one line per request with method, route, status, ms, partner, key id, batch_id and the request id; never the key or the body', async () => {
    const storeId = `LOG-${randomUUID().slice(0, 8)}`;
    // Lower-case letters keep the marker from ever being a valid order_type code.
    const marker = `bodymark-${randomUUID().slice(0, 8)}`;
    const partner = await service.createPartner({ stores: [storeId] });
    const storesBatch = { batch_id: newBatchId(), stores: [{ ...buildUsdStore(storeId), store_name: marker }] };
    const trades = tradeBatch({ storeId, recordCount: 2 });
    trades.trade_records[0]!.order_source_detail = marker;
    trades.trade_records[1]!.employee_id = marker;
    const bad = withValueAt(tradeBatch({ storeId }), '/trade_records/0/order_type', marker);
    // A batch_id the schema would not take is never written to the log: it is the caller's text.
    const badId = withValueAt(tradeBatch({ storeId }), '/batch_id', marker);

    const calls: [string, string, unknown, number][] = [
      ['PUT', 'stores', storesBatch, 202],
      ['POST', 'trade-records', trades, 202],
      ['POST', 'trade-records', trades, 200],
      ['POST', 'trade-records', bad, 400],
      ['POST', 'trade-records', badId, 400],
      ['GET', `daily-close/${storeId}/${fixtureBusinessDate}`, undefined, 200],
      ['GET', `daily-close/LOG-NOT-MINE/${fixtureBusinessDate}`, undefined, 403],
      ['GET', 'mappings/transaction-types', undefined, 200],
    ];
    const requestIds: string[] = [];
    for (const [method, path, body, status] of calls) {
      const response = await service.call(partner, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(status);
      requestIds.push(response.headers.get('x-request-id') ?? '');
    }
    // Rejected by the host before any function runs: no partner is known.
    expect((await service.call({ key: `${partner.key}x` }, 'POST', 'trade-records', trades)).status).toBe(401);

    const mine = service.logs.filter((line) => line.includes(`partner=${partner.partnerId} `));
    expect(mine).toHaveLength(calls.length);
    const parsed = mine.map((line) => {
      const m = accessLine.exec(line);
      expect(m, line).not.toBeNull();
      return { fn: m![1], method: m![2], route: m![3], status: Number(m![4]), keyId: m![7], batchId: m![8], requestId: m![9] };
    });
    expect(parsed.map((p) => `${p.method} ${p.route} ${p.status}`)).toEqual([
      'PUT /pos/v1/stores 202',
      'POST /pos/v1/trade-records 202',
      'POST /pos/v1/trade-records 200',
      'POST /pos/v1/trade-records 400',
      'POST /pos/v1/trade-records 400',
      'GET /pos/v1/daily-close/{store_id}/{business_date} 200',
      'GET /pos/v1/daily-close/{store_id}/{business_date} 403',
      'GET /pos/v1/mappings/transaction-types 200',
    ]);
    // A refused push is named by its batch_id too, so every request for a batch can be found.
    expect(parsed.map((p) => p.batchId)).toEqual([
      storesBatch.batch_id,
      trades.batch_id,
      trades.batch_id,
      bad.batch_id,
      '-',
      '-',
      '-',
      '-',
    ]);
    // Which of the partner's keys each request came with (a rotation is done when only the new one shows).
    expect(new Set(parsed.map((p) => p.keyId))).toEqual(new Set([partner.keyId]));
    expect(parsed[1]!.fn).toBe('pushTradeRecords');
    // The id each answer carried finds exactly its line.
    expect(new Set(requestIds).size).toBe(calls.length);
    expect(parsed.map((p) => p.requestId)).toEqual(requestIds);

    const hostLine = service.logs.filter((line) => / \/pos\/v1\/trade-records 401 \d+ms/.test(line));
    expect(hostLine.length).toBeGreaterThanOrEqual(1);

    const everything = service.logs.join('\n');
    expect(everything).not.toContain(partner.key);
    expect(everything).not.toContain(marker);
    expect(everything).not.toContain(storeId);
  });

  it('names the partner and key of a known key refused: revoked, or of an inactive partner', async () => {
    const partner = await service.createPartner({ stores: [] });
    const path = 'mappings/transaction-types';
    const linesOf = (requestId: string) => service.logs.filter((line) => line.endsWith(`request_id=${requestId}`));
    expect((await service.hq('partner', 'deactivate', partner.partnerId)).code).toBe(0);
    const inactive = await service.call(partner, 'GET', path);
    expect(inactive.status).toBe(403);
    expect(linesOf(inactive.headers.get('x-request-id') ?? '')).toEqual([
      expect.stringMatching(new RegExp(` 403 \\d+ms partner=${partner.partnerId} key_id=${partner.keyId} `)),
    ]);
    expect((await service.hq('partner', 'activate', partner.partnerId)).code).toBe(0);
    expect((await service.hq('key', 'revoke', partner.partnerId, partner.keyId)).code).toBe(0);
    const revoked = await service.call(partner, 'GET', path);
    expect(revoked.status).toBe(401);
    expect(linesOf(revoked.headers.get('x-request-id') ?? '')).toEqual([
      expect.stringMatching(new RegExp(` 401 \\d+ms partner=${partner.partnerId} key_id=${partner.keyId} `)),
    ]);
    // Neither answer names them: a caller learns nothing of the key it sent.
    expect(JSON.stringify(revoked.body)).not.toContain(partner.keyId);
    expect(JSON.stringify(inactive.body)).not.toContain(partner.keyId);
    // An unknown key names no one.
    const unknown = await service.call({ key: `${partner.key}x` }, 'GET', path);
    expect(unknown.status).toBe(401);
    expect(service.logs.join('\n')).not.toContain(partner.key);
  });
});
