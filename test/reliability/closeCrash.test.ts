import type { PipelineRequest } from '@azure/core-rest-pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DailyClose, TradeRecordBatch } from '../../src/domain/model/payloads.js';
import { reconciled } from '../support/httpScenario.js';
import { ackOf, reconciliationOf } from '../support/responseBodies.js';
import { eventually, startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { buildDayBatch, businessDateOf, expectedTotals, ledgerState, preparePartner, sendClose } from './support/dayScenario.js';
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

/**
 * Pushes `batch` with the reconcile message its push queues cut off (the request not sent, or its
 * answer lost): not acknowledged, left PENDING; sent again, accepted.
 */
async function cutOffAtReconcileMessageThenSentAgain(batch: TradeRecordBatch, afterSend: boolean): Promise<void> {
  policy.armCrash(writes['reconcile message']!, afterSend);
  const cut = await service.call(partner, 'POST', 'trade-records', batch);
  policy.disarm();
  expect(cut.status).toBeGreaterThanOrEqual(500);
  expect(await ledgerState(service, partner.partnerId, batch.batch_id)).toBe('PENDING');
  expect((await service.call(partner, 'POST', 'trade-records', batch)).status).toBe(202);
}

/*
 * A batch for a day already closed notes the day's next run, then queues its message. Cut off
 * between the two, the push is not acknowledged; sent again, it finds its own run noted and queues
 * it, so the day is reconciled with the batch and is not left waiting for a later one.
 */
describe('a late batch cut off at its reconcile message', () => {
  let day = 7400;
  for (const afterSend of [false, true]) {
    it(`${afterSend ? 'answer lost' : 'request not sent'}: sent again, the day is reconciled with it`, async () => {
      const businessDate = businessDateOf(day++);
      const first = buildDayBatch(random, 'NYC-0001', businessDate, 3, `lr-${day}-1`);
      const late = { ...buildDayBatch(random, 'NYC-0001', businessDate, 2, `lr-${day}-2`), batch_seq: 2 };
      expect((await service.call(partner, 'POST', 'trade-records', first)).status).toBe(202);
      await sendClose(service, partner, random, 'NYC-0001', businessDate, [...first.trade_records, ...late.trade_records], 2);
      expect((await reconciled(service, partner, 'NYC-0001', businessDate)).status).toBe('MISMATCHED');

      await cutOffAtReconcileMessageThenSentAgain(late, afterSend);
      const result = await eventually(
        async () => reconciliationOf(await service.call(partner, 'GET', `daily-close/NYC-0001/${businessDate}`)),
        (r) => r.status === 'MATCHED',
      );
      expect(result.status).toBe('MATCHED');
      expect(result.actual).toMatchObject({ trade_record_count: 5 });
    });
  }
});

/*
 * A newer version of a transaction sent under another store-day moves it there: the day it leaves
 * has its row marked, and that day's next run is noted and then queued. Cut off between the two, the
 * push is not acknowledged; sent again, it finds the move's run noted under the same name and queues
 * it, so the day left is reconciled without the transaction.
 */
describe('a move cut off at the reconcile message of the day it leaves', () => {
  let day = 7500;
  for (const afterSend of [false, true]) {
    it(`${afterSend ? 'answer lost' : 'request not sent'}: sent again, the day left is reconciled without it`, async () => {
      const left = businessDateOf(day++);
      const movedTo = businessDateOf(day++);
      const first = buildDayBatch(random, 'NYC-0001', left, 3, `mv-${day}`);
      expect((await service.call(partner, 'POST', 'trade-records', first)).status).toBe(202);
      await sendClose(service, partner, random, 'NYC-0001', left, first.trade_records);
      expect((await reconciled(service, partner, 'NYC-0001', left)).status).toBe('MATCHED');

      const [original] = first.trade_records;
      if (!original) throw new Error('the batch has no record');
      const moving = {
        ...buildDayBatch(random, 'NYC-0001', movedTo, 1, `mv-${day}-to`),
        trade_records: [{ ...original, business_date: movedTo, version: original.version + 1 }],
      };
      await cutOffAtReconcileMessageThenSentAgain(moving, afterSend);
      const result = await eventually(
        async () => reconciliationOf(await service.call(partner, 'GET', `daily-close/NYC-0001/${left}`)),
        (r) => r.actual?.trade_record_count === 2,
      );
      expect(result.status).toBe('MISMATCHED');
      expect(result.actual).toMatchObject({ trade_record_count: 2 });
    });
  }
});
