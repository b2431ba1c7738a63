import type { PipelineRequest } from '@azure/core-rest-pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DailyClose } from '../../src/domain/model/payloads.js';
import { reconciled } from '../support/httpScenario.js';
import { ackOf } from '../support/responseBodies.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { buildDayBatch, businessDateOf, expectedTotals, ledgerState, preparePartner } from './support/dayScenario.js';
import { FaultPolicy } from './support/faultPolicy.js';
import { seededRandom, seededUuid } from './support/random.js';

/*
 * A daily close writes its close row, the day's RECEIVED mark and the reconcile message side by
 * side. Cut off at any one of them (the request never sent, or sent and its answer lost), the close
 * is not acknowledged, the partner sends it again, and the day is reconciled MATCHED against it.
 */

const writes: Record<string, (request: PipelineRequest) => boolean> = {
  'close row': (r) => (r.method === 'POST' || r.method === 'PUT') && r.url.toLowerCase().includes('/dailycloses'),
  'RECEIVED mark': (r) => (r.method === 'POST' || r.method === 'PUT') && r.url.toLowerCase().includes('/reconciliations'),
  'reconcile message': (r) => r.method === 'POST' && r.url.includes('/reconcile-requests/messages'),
};

const policy = new FaultPolicy();
const random = seededRandom(1717);
let service: TestService;
let partner: TestPartner;
beforeAll(async () => {
  service = await startTestService({ services: { policy } });
  partner = await preparePartner(service, random);
});
afterAll(async () => {
  await service.stop();
});

describe('daily close cut off at one of its side-by-side writes', () => {
  let day = 7300;
  for (const [write, matches] of Object.entries(writes)) {
    for (const afterSend of [false, true]) {
      it(`${write}, ${afterSend ? 'answer lost' : 'request not sent'}: not acknowledged, sent again, reconciled MATCHED`, async () => {
        const businessDate = businessDateOf(day++);
        const batch = buildDayBatch(random, 'NYC-0001', businessDate, 3, `cc-${day}`);
        expect((await service.call(partner, 'POST', 'trade-records', batch)).status).toBe(202);
        const close: DailyClose = {
          batch_id: seededUuid(random),
          store_id: 'NYC-0001',
          business_date: businessDate,
          batch_count: 1,
          ...expectedTotals(batch.trade_records),
          currency: 'USD',
          closed_at: `${businessDate}T23:59:00-05:00`,
        };

        policy.armCrash(matches, afterSend);
        const cut = await service.call(partner, 'POST', 'daily-close', close);
        policy.disarm();
        expect(cut.status).toBeGreaterThanOrEqual(500);
        expect(await ledgerState(service, partner.partnerId, close.batch_id)).toBe('PENDING');

        const again = await service.call(partner, 'POST', 'daily-close', close);
        expect(again.status).toBe(202);
        expect(ackOf(again).status).toBe('ACCEPTED');
        expect(await ledgerState(service, partner.partnerId, close.batch_id)).toBe('COMMITTED');
        const result = await reconciled(service, partner, 'NYC-0001', businessDate);
        expect(result.status).toBe('MATCHED');
        expect(result.expected).toMatchObject({ trade_record_count: 3, net_sales_amount: close.net_sales_amount });
      });
    }
  }
});
