/**
 * A day whose reconcile message is gone (expired after 7 days in a poison queue, deleted there,
 * cleared with its queue) stays RECEIVED with nothing to reconcile it. The hourly watch names it
 * once no run can still come, and `hq reconciliation rerun` reconciles it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stuckDayWatchSchedule } from '../../src/functions/functionTable.js';
import { stuckAfterMs } from '../../src/services/isStuckDay.js';
import { runTimerFunction } from '../support/runTimerFunction.js';
import { startTestService, type TestService } from '../support/startTestService.js';
import { movableClock } from '../support/testClock.js';
import { getResult, push, sendClose, settled, setUpPartner } from './support/partnerFlow.js';
import { controlTotals, dailyClose, POS_CODES, tradeBatch } from './support/storeDayKit.js';
import { buildRecord, USD } from '../fixtures/tradeRecordFixtures.js';

const clock = movableClock();
let service: TestService;
beforeAll(async () => {
  // As in Azure: the close's run is due well after the close, so its message waits hidden.
  service = await startTestService({ settings: { RECONCILE_DELAY_SECONDS: '900' }, services: { clock } });
});
afterAll(async () => {
  await service.stop();
});

const runWatch = () => runTimerFunction(service, 'watchStuckDays', stuckDayWatchSchedule);

describe('a store-day whose reconcile message was lost', () => {
  it('is named by the watch once no run can still come, and reconciled by HQ rerun', async () => {
    const { partner, days } = await setUpPartner(service, [USD]);
    const day = days[0]!;
    const records = [buildRecord(day, { id: 'STUCK-1', code: 'S01', items: [{ product: 'X1', name: 'Item', qty: 1, unit: 12_50 }] })];
    await push(service, partner, tradeBatch(day, 1, records));
    await sendClose(service, partner, dailyClose(day, 1, controlTotals(USD, records, { mapping: POS_CODES })));
    expect((await getResult(service, partner, day)).status).toBe('RECEIVED');
    // The close's message is lost.
    await service.services.storage.queues.reconcile.clearMessages();

    // Its run could still come: nothing is stuck, and HQ's rerun leaves the day to it.
    expect(await runWatch()).toContain('metric reconcile_stuck_days 0');
    const early = await service.hq('reconciliation', 'rerun', partner.partnerId);
    expect([early.code, early.out]).toEqual([0, ['0 of 0 reconciled store-day(s) scheduled to reconcile again']]);

    clock.advance(stuckAfterMs + 60_000);
    const lines = await runWatch();
    expect(lines).toContain('metric reconcile_stuck_days 1');
    expect(lines).toContain(
      `watchStuckDays: 1 store-day(s) RECEIVED with no run to come (${partner.partnerId} ${day.storeId} ${day.businessDate}): npm run hq -- reconciliation rerun <partner> reconciles them`,
    );
    // The partner still sees RECEIVED: nothing reconciled it by itself.
    expect((await getResult(service, partner, day)).status).toBe('RECEIVED');

    const rerun = await service.hq('reconciliation', 'rerun', partner.partnerId);
    expect([rerun.code, rerun.out]).toEqual([
      0,
      ['1 of 1 reconciled store-day(s) scheduled to reconcile again (1 of them stuck RECEIVED)'],
    ]);
    const result = await settled(service, partner, day);
    expect(result.status).toBe('MATCHED');
    expect(result.actual.net_sales_amount).toBe('12.50');
    expect(await runWatch()).toContain('metric reconcile_stuck_days 0');
  });
});
