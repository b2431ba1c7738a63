/**
 * A trade_record_id is unique within the partner (contract §2.7), so a new version sent under
 * another business date moves the transaction: over real HTTP, each id is counted on one
 * store-day, in the results and in the report files, and an older or equal version sent under
 * another day is left out with a warning naming the day that holds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeRecord } from '../../src/domain/model/payloads.js';
import { dataset } from '../support/duckDb.js';
import { reconcileQueueDrained, startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { queryReports } from '../services/reports/reportDownload.js';
import { freshBusinessDate, push, sendClose, settled, setUpPartner } from './support/partnerFlow.js';
import { controlTotals, dailyClose, POS_CODES, tradeBatch } from './support/storeDayKit.js';
import { buildRecord, USD, type StoreDay } from '../fixtures/tradeRecordFixtures.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

function sale(day: StoreDay, id: string, unit: number, version = 1, modifiedAt?: string): TradeRecord {
  return buildRecord(day, {
    id,
    code: 'S01',
    items: [{ product: 'X1', name: 'Item', qty: 1, unit }],
    version,
    ...(modifiedAt ? { modifiedAt } : {}),
  });
}

/** Pushes a batch; the warnings other than those about products (the tests upload none). */
async function pushed(partner: TestPartner, day: StoreDay, batchSeq: number, records: TradeRecord[]) {
  return (await push(service, partner, tradeBatch(day, batchSeq, records))).filter((w) => w.code !== 'UNKNOWN_PRODUCT');
}

/** Closes the day with the totals of `records` and waits for a result newer than `after`. */
async function closeWith(partner: TestPartner, day: StoreDay, records: TradeRecord[], after = '') {
  await sendClose(service, partner, dailyClose(day, 1, controlTotals(USD, records, { mapping: POS_CODES })));
  return settled(service, partner, day, (r) => r.checked_at !== null && r.checked_at > after);
}

/** The store-days that hold `tradeRecordId` in the partner's sales_transactions file, with their version. */
async function salesRowsOf(partner: TestPartner, tradeRecordId: string): Promise<unknown[]> {
  await reconcileQueueDrained(service);
  return queryReports(service.services.storage.reports, (db, root) =>
    db.rows(
      `SELECT CAST(business_date AS VARCHAR) AS business_date, CAST(version AS INTEGER) AS version FROM ${dataset(root, 'sales_transactions')}
       WHERE partner_id = '${partner.partnerId}' AND trade_record_id = '${tradeRecordId}' ORDER BY business_date`,
    ),
  );
}

describe('a transaction sent again under another business date', () => {
  it('with version + 1 moves there: the day it left is reconciled again without it', async () => {
    const { partner, days } = await setUpPartner(service, [USD]);
    const d1 = days[0]!;
    const d2: StoreDay = { ...d1, businessDate: freshBusinessDate() };
    const d1Records = [sale(d1, 'MV-1', 1_000), sale(d1, 'KEEP-1', 2_000)];
    await pushed(partner, d1, 1, d1Records);
    const d1Matched = await closeWith(partner, d1, d1Records);
    expect(d1Matched.status).toBe('MATCHED');

    // The POS corrects the business date of MV-1: version 2 under D2.
    const d2Records = [sale(d2, 'MV-1', 1_000, 2), sale(d2, 'KEEP-2', 3_000)];
    expect(await pushed(partner, d2, 1, d2Records)).toEqual([]);
    expect((await closeWith(partner, d2, d2Records)).status).toBe('MATCHED');

    // D1 is reconciled again without waiting for a new close: its close still counts MV-1.
    const d1Again = await settled(service, partner, d1, (r) => r.checked_at !== null && r.checked_at > d1Matched.checked_at);
    expect(d1Again.status).toBe('MISMATCHED');
    expect(d1Again.actual).toEqual(controlTotals(USD, [d1Records[1]!], { mapping: POS_CODES }));
    // The partner resends D1's close without it.
    expect((await closeWith(partner, d1, [d1Records[1]!], d1Again.checked_at)).status).toBe('MATCHED');
    expect(await salesRowsOf(partner, 'MV-1')).toEqual([{ business_date: d2.businessDate, version: 2 }]);

    // Version 3 moves it back: now D2 is the day that no longer counts it.
    const d2Result = await settled(service, partner, d2);
    expect(await pushed(partner, d1, 2, [sale(d1, 'MV-1', 1_000, 3)])).toEqual([expect.objectContaining({ code: 'DAY_ALREADY_CLOSED' })]);
    const d2Again = await settled(service, partner, d2, (r) => r.checked_at !== null && r.checked_at > d2Result.checked_at);
    expect(d2Again.actual).toEqual(controlTotals(USD, [d2Records[1]!], { mapping: POS_CODES }));
    expect(await salesRowsOf(partner, 'MV-1')).toEqual([{ business_date: d1.businessDate, version: 3 }]);
  });

  it('with an older or the same version is left out, and the warning names the day that holds it', async () => {
    const { partner, days } = await setUpPartner(service, [USD]);
    const d1 = days[0]!;
    const d2: StoreDay = { ...d1, businessDate: freshBusinessDate() };
    const d3: StoreDay = { ...d1, businessDate: freshBusinessDate() };
    const v2 = sale(d2, 'OLD-1', 1_000, 2, `${d2.businessDate}T12:00:00Z`);
    await pushed(partner, d2, 1, [v2]);

    // Version 1 arrives late, under its first business date.
    const late = await pushed(partner, d1, 1, [sale(d1, 'OLD-1', 1_000, 1), sale(d1, 'NEW-1', 500)]);
    expect(late.map((w) => [w.code, w.path])).toEqual([['STALE_VERSION', 'trade_records[0]']]);
    expect(late[0]?.message).toMatch(new RegExp(`newer version .* under store_id "${d1.storeId}", business_date ${d2.businessDate}`));
    // Version 2 again under a third day, unchanged: a move needs version + 1.
    const tie = await pushed(partner, d3, 1, [sale(d3, 'OLD-1', 1_000, 2, `${d2.businessDate}T12:00:00Z`)]);
    expect(tie.map((w) => [w.code, w.path])).toEqual([['STALE_VERSION', 'trade_records[0]']]);
    expect(tie[0]?.message).toMatch(/same version and last_modified_at.*version \+ 1/);

    const d1Result = await closeWith(partner, d1, [sale(d1, 'NEW-1', 500)]);
    expect(d1Result.status).toBe('MATCHED');
    expect(d1Result.actual.trade_record_count).toBe(1);
    expect((await closeWith(partner, d2, [v2])).status).toBe('MATCHED');
    expect((await closeWith(partner, d3, [])).actual.trade_record_count).toBe(0);
    expect(await salesRowsOf(partner, 'OLD-1')).toEqual([{ business_date: d2.businessDate, version: 2 }]);
  });
});
