/**
 * A store-day's reconciliation status over real HTTP: its lifecycle, a superseded close, a missing
 * batch and its repair, unmapped source codes re-reconciled by a mapping upload, closed days
 * re-reconciled when HQ sets or changes the direction of a custom payment type, and HQ's listing of
 * results.
 */
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeRecord } from '../../src/domain/model/payloads.js';
import { dataset, text } from '../support/duckDb.js';
import { queryReports } from '../services/reports/reportDownload.js';
import { eventually, reconcileQueueDrained, startTestService, type TestService } from '../support/startTestService.js';
import { freshBusinessDate, getResult, push, sendClose, settled, setUpPartner } from './support/partnerFlow.js';
import { controlTotals, dailyClose, mappingBody, POS_CODES, shifted, tradeBatch } from './support/storeDayKit.js';
import { buildRecord, JPY, USD, type StoreDay } from '../fixtures/tradeRecordFixtures.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

const ALL_FIELDS = [
  'trade_record_count',
  'item_row_count',
  'payment_row_count',
  'net_sales_amount',
  'tax_amount',
  'tip_amount',
  'payment_total_amount',
];

/** Two simple sales (one with a tip) for a store-day. */
function twoSales(day: StoreDay, prefix: string): TradeRecord[] {
  const usd = day.profile.digits === 2;
  return [
    buildRecord(day, {
      id: `${prefix}-1`,
      code: 'S01',
      items: [{ product: 'X1', name: 'Item', qty: 2, unit: usd ? 850 : 900 }],
      tip: usd ? 150 : 100,
    }),
    buildRecord(day, { id: `${prefix}-2`, code: 'S01', items: [{ product: 'X2', name: 'Other', qty: 1, unit: usd ? 1275 : 1300 }] }),
  ];
}

describe('status lifecycle', () => {
  it('NOT_RECEIVED → RECEIVED → MATCHED, and RECEIVED again after a new close', async () => {
    const { partner, days } = await setUpPartner(service, [USD]);
    const day = days[0]!;
    const records = twoSales(day, 'L');
    await push(service, partner, tradeBatch(day, 1, records));

    const before = await getResult(service, partner, day);
    expect(before).toEqual({
      store_id: day.storeId,
      business_date: day.businessDate,
      status: 'NOT_RECEIVED',
      checked_at: null,
      expected: null,
      actual: null,
      differences: [],
      diagnosis: null,
    });

    const totals = controlTotals(USD, records, { mapping: POS_CODES });
    await sendClose(service, partner, dailyClose(day, 1, totals));
    const received = await getResult(service, partner, day);
    expect(received).toMatchObject({ status: 'RECEIVED', checked_at: null, expected: totals, actual: null, differences: [] });

    const first = await settled(service, partner, day);
    expect(first.status).toBe('MATCHED');
    expect(first.actual).toEqual(totals);

    await sendClose(service, partner, dailyClose(day, 1, totals));
    const again = await getResult(service, partner, day);
    expect(again).toMatchObject({ status: 'RECEIVED', checked_at: null, actual: null, expected: totals });

    const second = await settled(service, partner, day);
    expect(second.status).toBe('MATCHED');
    expect(Date.parse(second.checked_at)).toBeGreaterThan(Date.parse(first.checked_at));
  });

  it('a close superseded before its reconciliation runs does nothing: the result reflects the later close only', async () => {
    const { partner, days } = await setUpPartner(service, [JPY]);
    const day = days[0]!;
    const records = twoSales(day, 'SUP');
    await push(service, partner, tradeBatch(day, 1, records));
    const totals = controlTotals(JPY, records, { mapping: POS_CODES });

    const closeA = dailyClose(day, 1, shifted(JPY, totals, 'net_sales_amount', 500));
    const closeB = dailyClose(day, 1, totals);
    await sendClose(service, partner, closeA);
    await sendClose(service, partner, closeB);

    const seen = new Set<string>();
    const result = await eventually(
      async () => {
        const r = await getResult(service, partner, day);
        seen.add(r.status);
        return r;
      },
      (r) => r.status === 'MATCHED' || r.status === 'MISMATCHED',
    );
    expect(result.status).toBe('MATCHED');
    expect(result.expected).toEqual(totals);
    expect(seen.has('MISMATCHED')).toBe(false);

    // Close A's message, delivered (again) now, is recognised as superseded and writes nothing.
    const messageA = { partnerId: partner.partnerId, storeId: day.storeId, businessDate: day.businessDate, closeBatchId: closeA.batch_id };
    expect(await service.services.reconciler.reconcile(messageA)).toBe('superseded');
    await reconcileQueueDrained(service);
    expect(await getResult(service, partner, day)).toEqual(result);
  });
});

describe('a missing batch', () => {
  it('is MISMATCHED with the batch named, then MATCHED once it is sent and the close resent', async () => {
    const { partner, days } = await setUpPartner(service, [USD]);
    const day = days[0]!;
    const batches = [
      [buildRecord(day, { id: 'MB-1', code: 'S01', items: [{ product: 'X1', name: 'Item', qty: 1, unit: 1099 }] })],
      [
        buildRecord(day, { id: 'MB-2', code: 'S01', items: [{ product: 'X2', name: 'Wings', qty: 2, unit: 1495 }], tip: 400 }),
        buildRecord(day, { id: 'MB-3', code: 'S01', items: [{ product: 'X3', name: 'Shake', qty: 1, unit: 575 }] }),
      ],
      [buildRecord(day, { id: 'MB-4', code: 'S01', items: [{ product: 'X4', name: 'Salad', qty: 1, unit: 895 }] })],
    ];
    const bodies = batches.map((records, i) => tradeBatch(day, i + 1, records));
    await push(service, partner, bodies[0]!);
    await push(service, partner, bodies[2]!);

    const totals = controlTotals(USD, batches.flat(), { mapping: POS_CODES });
    await sendClose(service, partner, dailyClose(day, 3, totals));
    const mismatched = await settled(service, partner, day);
    expect(mismatched.status).toBe('MISMATCHED');
    expect(mismatched.differences).toEqual(ALL_FIELDS);
    expect(mismatched.actual).toEqual(controlTotals(USD, [...batches[0]!, ...batches[2]!], { mapping: POS_CODES }));
    expect(mismatched.diagnosis.missing_batch_seqs).toEqual([2]);
    expect(mismatched.diagnosis.missing_batch_count).toBe(1);
    expect(mismatched.diagnosis.hints.length).toBeGreaterThan(0);
    expect(mismatched.diagnosis.hints[0]).toMatch(/Batch 2 of 3/);

    const late = await push(service, partner, bodies[1]!);
    expect(late.map((w) => w.code)).toContain('DAY_ALREADY_CLOSED');
    const resent = dailyClose(day, 3, totals);
    await sendClose(service, partner, resent);
    expect((await getResult(service, partner, day)).status).toBe('RECEIVED');

    const matched = await settled(service, partner, day);
    expect(matched.status).toBe('MATCHED');
    expect(matched.actual).toEqual(totals);
    expect(matched.diagnosis.missing_batch_seqs).toEqual([]);
  });
});

describe('unmapped source codes', () => {
  it('count as transactions but not revenue; a mapping upload reconciles the day again without a new close', async () => {
    const { partner, days } = await setUpPartner(service, [USD]);
    const day = days[0]!;
    const records = [
      ...twoSales(day, 'UM'),
      buildRecord(day, { id: 'UM-C1', code: 'CT30', items: [{ product: 'CATER', name: 'Catering', qty: 1, unit: 25_000 }], tip: 2_000 }),
      buildRecord(day, { id: 'UM-C2', code: 'CT30', items: [{ product: 'CATER', name: 'Catering', qty: 2, unit: 9_900 }] }),
    ];
    const warnings = await push(service, partner, tradeBatch(day, 1, records));
    expect(warnings.filter((w) => w.code === 'UNMAPPED_TRANSACTION_TYPE').map((w) => w.path)).toEqual([
      'trade_records[2]',
      'trade_records[3]',
    ]);

    // The partner's POS counts CT30 as a sale; HQ has no mapping for it yet.
    const partnerTotals = controlTotals(USD, records, { mapping: { ...POS_CODES, CT30: 'SALE' } });
    const hqTotals = controlTotals(USD, records, { mapping: POS_CODES });
    await sendClose(service, partner, dailyClose(day, 1, partnerTotals));
    const mismatched = await settled(service, partner, day);
    expect(mismatched.status).toBe('MISMATCHED');
    expect(mismatched.actual).toEqual(hqTotals);
    expect(mismatched.actual.trade_record_count).toBe(4);
    expect(mismatched.differences).toEqual(['net_sales_amount', 'tax_amount', 'tip_amount']);
    expect(mismatched.diagnosis.unmapped_transaction_types).toEqual([{ source_code: 'CT30', transaction_count: 2 }]);
    expect(mismatched.diagnosis.hints.join(' ')).toMatch(/CT30/);

    const upload = await service.call(partner, 'PUT', 'mappings/transaction-types', mappingBody({ ...POS_CODES, CT30: 'SALE' }));
    expect(upload.status).toBe(202);
    const matched = await settled(service, partner, day, (r) => r.status === 'MATCHED');
    expect(matched.actual).toEqual(partnerTotals);
    expect(matched.expected).toEqual(partnerTotals);
    expect(matched.differences).toEqual([]);
    expect(matched.diagnosis.unmapped_transaction_types).toEqual([]);
    expect(Date.parse(matched.checked_at)).toBeGreaterThan(Date.parse(mismatched.checked_at));
  });
});

describe('payment directions', () => {
  it('a closed day is reconciled again when HQ sets the direction of its unknown payment_type and when HQ changes it', async () => {
    const { partner, days } = await setUpPartner(service, [USD]);
    const day = days[0]!;
    const records = [
      ...twoSales(day, 'PD'),
      buildRecord(day, {
        id: 'PD-H',
        code: 'S01',
        items: [{ product: 'X5', name: 'Office lunch', qty: 10, unit: 1250 }],
        payments: [
          { type: 'HOUSE_ACCOUNT', method: 'HOUSE_ACCOUNT', amount: 10_000 },
          { type: 'SALE', method: 'CREDIT_CARD', amount: 'rest' },
        ],
      }),
    ];
    const warnings = await push(service, partner, tradeBatch(day, 1, records));
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'UNKNOWN_PAYMENT_TYPE', path: 'trade_records[2]' }));

    const partnerTotals = controlTotals(USD, records, { mapping: POS_CODES, directions: { HOUSE_ACCOUNT: 1 } });
    const withoutCustom = controlTotals(USD, records, { mapping: POS_CODES });
    const countedBack = controlTotals(USD, records, { mapping: POS_CODES, directions: { HOUSE_ACCOUNT: -1 } });
    expect(new Set([partnerTotals, withoutCustom, countedBack].map((t) => t.payment_total_amount)).size).toBe(3);
    await sendClose(service, partner, dailyClose(day, 1, partnerTotals));
    const mismatched = await settled(service, partner, day);
    expect(mismatched.status).toBe('MISMATCHED');
    expect(mismatched.differences).toEqual(['payment_total_amount']);
    expect(mismatched.actual).toEqual(withoutCustom);
    expect(mismatched.diagnosis.unknown_payment_types).toEqual([{ payment_type: 'HOUSE_ACCOUNT', payment_count: 1 }]);
    expect(mismatched.diagnosis.hints.join(' ')).toMatch(/HOUSE_ACCOUNT/);

    // The HQ tool registers the direction; the partner resends nothing.
    const set = await service.hq('payment-type', 'set-direction', partner.partnerId, 'HOUSE_ACCOUNT', '1');
    expect(set.code, set.err.join('\n')).toBe(0);
    const matched = await settled(service, partner, day, (r) => r.status === 'MATCHED');
    expect(matched.actual).toEqual(partnerTotals);
    expect(matched.diagnosis.unknown_payment_types).toEqual([]);

    // The HQ API corrects it: the day is counted again, HOUSE_ACCOUNT payments now taken off.
    const admin = await service.createOperator('admin');
    const corrected = await service.callHost(admin, 'PUT', `hq/v1/partners/${partner.partnerId}/payment-directions`, {
      payment_type: 'HOUSE_ACCOUNT',
      direction: -1,
    });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    const recounted = await settled(service, partner, day, (r) => r.checked_at !== matched.checked_at);
    expect(recounted.status).toBe('MISMATCHED');
    expect(recounted.differences).toEqual(['payment_total_amount']);
    expect(recounted.actual).toEqual(countedBack);

    // A rebuild converts with the direction now in effect, and its payments add up to the result.
    const rebuilt = await service.hq('reports', 'rebuild', '--partner', partner.partnerId);
    expect(rebuilt.code, rebuilt.err.join('\n')).toBe(0);
    expect(rebuilt.out).toEqual([
      '1 of 1 reconciled store-day(s) rewritten',
      'stores file: written',
      'products file: none (the partner has no products)',
      'transaction_type_mappings file: written',
    ]);
    await queryReports(service.services.storage.reports, async (db, root) => {
      const where = `WHERE partner_id = '${partner.partnerId}' AND business_date = DATE '${day.businessDate}'`;
      const payments = await db.row(
        `SELECT sum(signed_amount) AS total, count(*) FILTER (WHERE direction IS NULL) AS unknown FROM ${dataset(root, 'sales_payments')} ${where}`,
      );
      const storeDay = await db.row(`SELECT actual_payment_total_amount AS total FROM ${dataset(root, 'store_days')} ${where}`);
      const atScale4 = new Big(countedBack.payment_total_amount).toFixed(4);
      expect({ payments: text(payments.total), unknown: text(payments.unknown), storeDay: text(storeDay.total) }).toEqual({
        payments: atScale4,
        unknown: '0',
        storeDay: atScale4,
      });
    });
  });
});

describe('HQ listing', () => {
  it('hq reconciliation list --partner --status MISMATCHED --date lists exactly the matching rows', async () => {
    const { partner, days } = await setUpPartner(service, [USD, USD]);
    const date = freshBusinessDate();
    const otherDate = days[0]!.businessDate;
    const [storeA, storeB] = days.map((d) => d.storeId) as [string, string];
    const mismatchedDay: StoreDay = { profile: USD, storeId: storeA, businessDate: date };
    const matchedDay: StoreDay = { profile: USD, storeId: storeB, businessDate: date };
    const otherDateDay: StoreDay = { profile: USD, storeId: storeA, businessDate: otherDate };
    const all = [mismatchedDay, matchedDay, otherDateDay];
    for (const [i, day] of all.entries()) {
      const records = twoSales(day, `HQ${i}`);
      await push(service, partner, tradeBatch(day, 1, records));
      const totals = controlTotals(USD, records, { mapping: POS_CODES });
      await sendClose(service, partner, dailyClose(day, 1, day === matchedDay ? totals : shifted(USD, totals, 'tip_amount', -100)));
    }
    for (const day of all) await settled(service, partner, day);

    const listed = await service.hq('reconciliation', 'list', '--partner', partner.partnerId, '--status', 'MISMATCHED', '--date', date);
    expect(listed.code, listed.err.join('\n')).toBe(0);
    const [header, ...rows] = listed.out;
    expect(header).toBe('partner\tstore\tbusiness_date\tstatus\tchecked_at\tdifferences');
    expect(rows).toHaveLength(1);
    const columns = rows[0]!.split('\t');
    expect(columns[0]).toBe(partner.partnerId);
    expect(columns[1]).toBe(storeA);
    expect(columns[2]).toBe(date);
    expect(columns[3]).toBe('MISMATCHED');
    expect(Date.parse(columns[4]!)).not.toBeNaN();
    expect(columns[5]).toBe('tip_amount');

    const matched = await service.hq('reconciliation', 'list', '--partner', partner.partnerId, '--status', 'MATCHED', '--date', date);
    expect(matched.out.slice(1).map((line) => line.split('\t')[1])).toEqual([storeB]);
    const everything = await service.hq('reconciliation', 'list', '--partner', partner.partnerId);
    expect(everything.out).toHaveLength(4);
  });
});
