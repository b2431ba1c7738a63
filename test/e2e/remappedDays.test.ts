/**
 * A mapping upload that gives a code already mapped another standard code reconciles no closed day
 * by itself (only days that held unmapped codes are noted); `hq reconciliation rerun` brings a
 * partner's reconciled days in range in line with the mapping in effect, result and report files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataset, text } from '../support/duckDb.js';
import { queryReports } from '../services/reports/reportDownload.js';
import { eventually, queueDrained, reconcileQueueDrained, startTestService, type TestService } from '../support/startTestService.js';
import { getResult, push, sendClose, settled, setUpPartner } from './support/partnerFlow.js';
import { controlTotals, dailyClose, mappingBody, POS_CODES, tradeBatch } from './support/storeDayKit.js';
import { buildRecord, USD, type StoreDay } from '../fixtures/tradeRecordFixtures.js';
import type { TradeRecord } from '../../src/domain/model/payloads.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

/** Two sales under the POS code S01 (SALE in POS_CODES). */
function twoSales(day: StoreDay, prefix: string): TradeRecord[] {
  return [10_00, 20_00].map((unit, i) =>
    buildRecord(day, { id: `${prefix}-${String(i)}`, code: 'S01', items: [{ product: 'X1', name: 'Item', qty: 1, unit }] }),
  );
}

/** The store_days row of each of the partner's days: status and actual net sales, by business date. */
async function storeDayRows(partnerId: string): Promise<Record<string, string>> {
  const rows = await queryReports(service.services.storage.reports, (db, root) =>
    db.rows(
      `SELECT CAST(business_date AS VARCHAR) AS d, status, CAST(actual_net_sales_amount AS VARCHAR) AS net FROM ${dataset(root, 'store_days')} WHERE partner_id = '${partnerId}'`,
    ),
  );
  const byDate: Record<string, string> = {};
  for (const r of rows) byDate[text(r.d) ?? ''] = `${text(r.status) ?? ''} ${text(r.net) ?? ''}`;
  return byDate;
}

describe('hq reconciliation rerun', () => {
  it('reconciles the reconciled days in range again under the mapping in effect; days outside keep their result', async () => {
    const { partner, days } = await setUpPartner(service, [USD, USD]);
    const [early, late] = [days[0]!, days[1]!];
    const sent = new Map<StoreDay, TradeRecord[]>();
    for (const [i, day] of days.entries()) {
      const records = twoSales(day, `R${String(i)}`);
      sent.set(day, records);
      await push(service, partner, tradeBatch(day, 1, records));
      await sendClose(service, partner, dailyClose(day, 1, controlTotals(USD, records, { mapping: POS_CODES })));
      expect((await settled(service, partner, day)).status).toBe('MATCHED');
    }

    // S01 turns from SALE into VOID: not revenue any more.
    const remapped = { ...POS_CODES, S01: 'VOID' };
    expect((await service.call(partner, 'PUT', 'mappings/transaction-types', mappingBody(remapped))).status).toBe(202);
    await queueDrained(service, 'closedDayReruns');
    await reconcileQueueDrained(service);
    // No day was noted for a code that was mapped: both keep the figures of their last run.
    for (const day of days) expect((await getResult(service, partner, day)).status).toBe('MATCHED');

    const rerun = await service.hq('reconciliation', 'rerun', partner.partnerId.toUpperCase(), '--from', late.businessDate);
    expect(rerun.code, rerun.err.join('\n')).toBe(0);
    expect(rerun.out).toEqual(['1 of 1 reconciled store-day(s) scheduled to reconcile again']);

    const after = await eventually(
      () => getResult(service, partner, late),
      (r) => r.status === 'MISMATCHED',
    );
    expect(after.actual).toEqual(controlTotals(USD, sent.get(late)!, { mapping: remapped }));
    expect(after.actual?.net_sales_amount).toBe('0.00');
    await reconcileQueueDrained(service);
    const early_ = await getResult(service, partner, early);
    expect(early_.status).toBe('MATCHED');
    expect(early_.actual).toEqual(controlTotals(USD, sent.get(early)!, { mapping: POS_CODES }));
    // The files follow the result of each day's last run.
    expect(await storeDayRows(partner.partnerId)).toEqual({
      [early.businessDate]: 'MATCHED 30.0000',
      [late.businessDate]: 'MISMATCHED 0.0000',
    });
  });

  it('refuses an unknown partner and a reversed range, scheduling nothing', async () => {
    const unknown = await service.hq('reconciliation', 'rerun', 'no-such-partner');
    expect(unknown.code).toBe(1);
    const { partner } = await setUpPartner(service, [USD]);
    const reversed = await service.hq('reconciliation', 'rerun', partner.partnerId, '--from', '2026-02-02', '--to', '2026-02-01');
    expect(reversed.code).toBe(2);
    expect(reversed.err.join('\n')).toContain('--from must not be after --to');
  });
});
