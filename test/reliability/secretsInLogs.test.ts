import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/services/hashApiKey.js';
import { capturedLogs, startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { buildDayBatch, businessDateOf, preparePartner } from './support/dayScenario.js';
import { seededRandom } from './support/random.js';

const bodyMarker = 'BODYMARKER7731';
let service: TestService;
let partner: TestPartner;
const random = seededRandom(1010);

beforeAll(async () => {
  service = await startTestService();
  partner = await preparePartner(service, random);
});
afterAll(async () => {
  await service.stop();
});

describe('secrets never reach the logs', () => {
  it('no key, key hash or request body in any log line of this file, whatever the outcome of the request', async () => {
    const revoked = await service.hq('key', 'issue', partner.partnerId);
    const revokedKey = revoked.out[revoked.out.length - 1]!;
    const revokedId = /key (key-[0-9a-f]+) issued/.exec(revoked.out[0] ?? '')?.[1] ?? '';
    await service.hq('key', 'revoke', partner.partnerId, revokedId);
    const batch = buildDayBatch(random, 'NYC-0001', businessDateOf(6000), 2, 'secret');
    batch.trade_records[0]!.fiscal_document_no = bodyMarker;
    const bad = { ...batch, batch_id: 'not-a-uuid', note: bodyMarker };
    const calls: [TestPartner | { key: string } | null, string, string, unknown][] = [
      [partner, 'POST', 'trade-records', batch],
      [partner, 'POST', 'trade-records', batch],
      [partner, 'POST', 'trade-records', bad],
      [{ key: revokedKey }, 'POST', 'trade-records', batch],
      [{ key: `${partner.key}x` }, 'GET', 'mappings/transaction-types', undefined],
      [null, 'PUT', 'stores', { marker: bodyMarker }],
      [partner, 'GET', `daily-close/NYC-0001/${businessDateOf(6000)}`, undefined],
      [partner, 'POST', 'daily-close', { marker: bodyMarker }],
    ];
    for (const [who, method, path, body] of calls) await service.call(who, method, path, body);
    // The key in the query string (`code`) instead of the header.
    await fetch(`${service.baseUrl}/mappings/transaction-types?code=${encodeURIComponent(partner.key)}`);
    const secrets = [
      partner.key,
      hashApiKey(partner.key),
      revokedKey,
      hashApiKey(revokedKey),
      bodyMarker,
      JSON.stringify(batch).slice(0, 40),
    ];
    const offending = capturedLogs.filter((line) => secrets.some((s) => line.includes(s)));
    console.log(`log scan of this file: ${capturedLogs.length} lines, ${offending.length} holding a key, key hash or body`);
    expect(capturedLogs.length).toBeGreaterThan(10);
    expect(offending).toEqual([]);
  });
});
