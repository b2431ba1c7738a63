import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeDayBlobName } from '../../../src/reports/reportBlobName.js';
import { storeDayDatasets } from '../../../src/reports/reportDatasets.js';
import { ReportStoreDayRepository } from '../../../src/storage/ReportStoreDayRepository.js';
import { eventually, startTestService, type TestService } from '../../support/startTestService.js';
import { push, sendClose, settled, setUpPartner } from '../../e2e/support/partnerFlow.js';
import { controlTotals, dailyClose, POS_CODES, tradeBatch } from '../../e2e/support/storeDayKit.js';
import { buildRecord, USD } from '../../fixtures/tradeRecordFixtures.js';
import { dataset } from '../../support/duckDb.js';
import { queryReports } from './reportDownload.js';

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
      () => Promise.resolve(service.logs.filter((l) => l.includes(': REPORT_DATA_UNWRITABLE: '))),
      (lines) => lines.length > 0,
    );
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(
      /^WARN \[reconcileDay\] reconcileDay: REPORT_DATA_UNWRITABLE: the report files of the store-day were not written: actual_net_sales_amount of the store-day does not fit DECIMAL\(18, 4\)$/,
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

  it("keeps a day whose totals the store_days file cannot hold out of it, and the date's other stores' rows current", async () => {
    const { partner, days } = await setUpPartner(service, [USD, USD]);
    const refusals = () => service.logs.filter((l) => l.includes(': REPORT_DATA_UNWRITABLE: '));
    const refusedBefore = refusals().length;
    const [big, small] = days.map((d) => ({ ...d, businessDate: days[0]!.businessDate }));
    if (!big || !small) throw new Error('no days');
    const storeDays = new ReportStoreDayRepository(service.services.storage.tables.reportStoreDays);
    const rowsOfDate = () => storeDays.list(partner.partnerId, big.businessDate);

    const sale = (id: string, unit: number) =>
      buildRecord(small, { id, code: 'S01', items: [{ product: 'P-1', name: 'Tea', qty: 1, unit }] });
    const first = sale('SMALL-1', 1_000);
    await push(service, partner, tradeBatch(small, 1, [first]));
    await sendClose(service, partner, dailyClose(small, 1, controlTotals(USD, [first], { mapping: POS_CODES })));
    await eventually(rowsOfDate, (rows) => rows.length === 1);

    // Each transaction is within the push limits; the day's net sales, 120,000,000,000,000.00, is not
    // within DECIMAL(18,4).
    const huge = ['BIG-1', 'BIG-2'].map((id) =>
      buildRecord(big, { id, code: 'S01', items: [{ product: 'P-1', name: 'Gold', qty: 1, unit: 6_000_000_000_000_000 }], tax: 0 }),
    );
    await push(service, partner, tradeBatch(big, 1, huge));
    const zero = {
      trade_record_count: 2,
      item_row_count: 2,
      payment_row_count: 2,
      net_sales_amount: '0.00',
      tax_amount: '0.00',
      tip_amount: '0.00',
    };
    await sendClose(service, partner, dailyClose(big, 1, { ...zero, payment_total_amount: '0.00' }));
    expect((await settled(service, partner, big)).actual.net_sales_amount).toBe('120000000000000.00');
    const refused = await eventually(
      () => Promise.resolve(refusals().slice(refusedBefore)),
      (lines) => lines.length > 0,
    );
    expect(refused).toEqual([expect.stringMatching(/actual_net_sales_amount of the store-day does not fit DECIMAL\(18, 4\)$/) as string]);

    // A late batch of the other store: its row and the date's file follow it.
    const late = sale('SMALL-2', 500);
    await push(service, partner, tradeBatch(small, 2, [late]));
    await eventually(rowsOfDate, (rows) => rows.some((row) => row.counts.sales_transactions === 2));
    expect((await rowsOfDate()).map((row) => row.store_id)).toEqual([small.storeId]);
    await eventually(
      () =>
        queryReports(service.services.storage.reports, (db, root) =>
          db.rows(
            `SELECT store_id, sales_transaction_count AS n FROM ${dataset(root, 'store_days')} WHERE partner_id = '${partner.partnerId}'`,
          ),
        ),
      (rows) => JSON.stringify(rows) === JSON.stringify([{ store_id: small.storeId, n: '2' }]),
    );
    // The big day has no files, and its failure was the only one.
    for (const name of storeDayDatasets.map((d) => storeDayBlobName(d, partner.partnerId, big.businessDate, big.storeId))) {
      expect(await service.services.storage.reports.getBlockBlobClient(name).exists(), name).toBe(false);
    }
    expect(refusals()).toHaveLength(refusedBefore + 1);
    // HQ is alerted on it: nothing retries the day's files.
    const figure = `metric report_unwritten 1 partner=${encodeURIComponent(partner.partnerId)} store=${encodeURIComponent(big.storeId)} business_date=${big.businessDate} code=REPORT_DATA_UNWRITABLE`;
    expect(service.logs.filter((l) => l.endsWith(figure))).toHaveLength(1);
  });
});
