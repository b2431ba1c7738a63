import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportStoreDayRepository } from '../../../src/storage/ReportStoreDayRepository.js';
import { eventually, startTestService, type TestService } from '../../support/startTestService.js';
import { push, sendClose, settled, setUpPartner } from '../../e2e/support/partnerFlow.js';
import { dailyClose, tradeBatch } from '../../e2e/support/storeDayKit.js';
import { buildRecord, USD } from '../../fixtures/tradeRecordFixtures.js';

/*
 * A store-day whose figures the files cannot hold: every amount is within the push limits, but the
 * net sales the service derives (total − tax − tip) is beyond DECIMAL(18,4). The day is reconciled
 * all the same; its files are not written, the failure is logged once with its stable code, and
 * the reconcile message is not retried.
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ settings: { RECONCILE_DELAY_SECONDS: '0' } });
});
afterAll(async () => {
  await service.stop();
});

describe('a permanent report failure', () => {
  it('leaves the result standing, logs REPORT_DATA_UNWRITABLE once, and writes no file', async () => {
    const { partner, days } = await setUpPartner(service, [USD]);
    const day = days[0];
    if (!day) throw new Error('no day');
    // Every amount has at most 14 integer digits and the amount identity holds, but
    // net_sales = total − tax = 70,000,000,000,000.00 + 30,000,000,000,000.00 needs 15.
    const record = buildRecord(day, {
      id: 'HUGE',
      code: 'S01',
      items: [{ product: 'P-1', name: 'Gold', qty: 1, unit: 5_000_000_000_000_000 }],
      serviceCharge: 5_000_000_000_000_000,
      tax: -3_000_000_000_000_000,
    });
    expect(record.total_amount).toBe('70000000000000.00');
    await push(service, partner, tradeBatch(day, 1, [record]));
    // The close cannot carry that net sales either: it is sent with zero, and the day mismatches.
    await sendClose(
      service,
      partner,
      dailyClose(day, 1, {
        trade_record_count: 1,
        item_row_count: 1,
        payment_row_count: 1,
        net_sales_amount: '0.00',
        tax_amount: record.tax_amount,
        tip_amount: '0.00',
        payment_total_amount: record.total_amount,
      }),
    );
    const result = await settled(service, partner, day);
    expect(result.status).toBe('MISMATCHED');

    const warned = await eventually(
      () => Promise.resolve(service.logs.filter((l) => l.includes('REPORT_DATA_UNWRITABLE'))),
      (lines) => lines.length > 0,
    );
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(
      /^WARN \[reconcileDay\] reconcileDay: REPORT_DATA_UNWRITABLE: the report files of the store-day were not written: net_sales of trade_records\[0\] of batch [0-9a-f-]+ does not fit DECIMAL\(18, 4\)$/,
    );
    expect(warned[0]).not.toContain('99999999999999');
    // Not retried: the message succeeded, no failed dequeue was logged.
    expect(service.logs.filter((l) => l.includes('reconcileDay: failed'))).toEqual([]);
    const names: string[] = [];
    for await (const blob of service.services.storage.reports.listBlobsFlat({ prefix: 'sales_transactions/' })) names.push(blob.name);
    expect(names.filter((n) => n.includes(partner.partnerId))).toEqual([]);
    const storeDays = new ReportStoreDayRepository(service.services.storage.tables.reportStoreDays);
    expect(await storeDays.list(partner.partnerId, day.businessDate)).toEqual([]);
  });
});
