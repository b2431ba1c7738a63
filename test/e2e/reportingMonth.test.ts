/**
 * HQ reporting end to end over real HTTP and the storage emulator: two partners push a generated
 * month (2026-02-01 to 02-28) — partner A a New York store in USD, partner B a Tokyo store
 * in JPY — with combos, refunds, exchanges, deposits paid and applied, a transaction corrected by a
 * later version, and a code partner A maps only after its first four days. The month holds every
 * case the generator varies by day (exchanges every 3rd day, deposits every 5th, voids every 4th,
 * tips every 2nd). Size: 2 store-days a day, 2 batches each, 4 to 8 transactions a day per store
 * (about 280 transactions pushed in all).
 *
 * The service reconciles each day and writes the report files itself (fragments staged by the
 * sweep, or converted at reconcile time when the sweep has not run yet). DuckDB reads the files
 * downloaded from the emulator; its totals must equal an independent integer computation to the
 * minor unit, before and after the mapping upload; the sales and unmapped queries must equal
 * DuckDB's totals; `hq reports rebuild` rewrites the same figures.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeRecord } from '../../src/domain/model/payloads.js';
import { ReportStoreDayRepository } from '../../src/storage/ReportStoreDayRepository.js';
import { UnmappedUsageRepository } from '../../src/storage/UnmappedUsageRepository.js';
import { allNotes } from '../support/allNotes.js';
import { DuckDb, dataset } from '../support/duckDb.js';
import { CONTRACT_REVENUE_CODES, SUGGESTED_DIRECTIONS, toMinor } from '../support/independentTotals.js';
import { eventually, startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { movableClock } from '../support/testClock.js';
import { downloadReports, reportNames } from '../services/reports/reportDownload.js';
import { push, sendClose } from './support/partnerFlow.js';
import { controlTotals, dailyClose, mappingBody, POS_CODES, storeBody, tradeBatch } from './support/storeDayKit.js';
import { buildRecord, JPY, USD, type CurrencyProfile, type StoreDay } from '../fixtures/tradeRecordFixtures.js';

const days = Array.from({ length: 28 }, (_, i) => `2026-02-${String(i + 1).padStart(2, '0')}`);
const from = days[0] ?? '';
const to = days.at(-1) ?? '';
/** The code partner A's POS uses for catering sales; HQ's mapping has it only after the first days. */
const lateCode = 'CAT99';
const firstDays = new Set(days.slice(0, 4));
const lastUnmappedDay = days[3] ?? '';
const mappingA = { ...POS_CODES, [lateCode]: 'SALE' };
const withoutLateCode = POS_CODES;
const revenue = new Set(CONTRACT_REVENUE_CODES);

interface PartnerMonth {
  partner: TestPartner;
  profile: CurrencyProfile;
  storeId: string;
  /** The latest version of every transaction, per business date. */
  latest: Map<string, TradeRecord[]>;
}

let service: TestService;
let a: PartnerMonth;
let b: PartnerMonth;
const roots: string[] = [];

/** A day's records: batch 1 and batch 2 (which corrects one record of batch 1). */
function dayRecords(day: StoreDay, index: number, withLateCode: boolean): TradeRecord[][] {
  const p = day.profile.currency === 'USD' ? 100 : 1;
  const r = (spec: Parameters<typeof buildRecord>[1]) => buildRecord(day, spec);
  const id = (n: string) => `${day.businessDate}-${n}`;
  const combo = r({
    id: id('combo'),
    code: 'S01',
    items: [
      {
        product: 'P-COMBO',
        name: 'Burger Combo',
        type: 'COMBO',
        qty: 1,
        unit: 9 * p + (index % 5) * p,
        modifiers: [{ group: 'MG-DRINK', option: 'OPT-LARGE', delta: p / 2 > 0 ? Math.floor(p / 2) : 0 }],
        children: [
          { product: 'P-BURGER', name: 'Burger', type: 'SINGLE' },
          { product: 'P-FRIES', name: 'Fries', type: 'SIDE' },
        ],
      },
      { product: 'P-SHAKE', name: 'Shake', qty: 2, unit: 4 * p, voided: index % 4 === 0 },
    ],
    tip: index % 2 === 0 ? p : 0,
  });
  const correctedV1 = r({ id: id('fix'), code: 'S01', items: [{ product: 'P-SALAD', name: 'Salad', qty: 1, unit: 7 * p }] });
  const correctedV2 = r({
    id: id('fix'),
    code: 'S01',
    version: 2,
    modifiedAt: `${day.businessDate}T15:00:00${day.profile.offset}`,
    items: [{ product: 'P-SALAD', name: 'Salad', qty: 2, unit: 7 * p, discount: p }],
  });
  const refund = r({
    id: id('refund'),
    code: 'R02',
    original: id('combo'),
    items: [{ product: 'P-SHAKE', name: 'Shake', qty: -1, unit: 4 * p }],
  });
  const batch1 = [combo, correctedV1, refund];
  const batch2 = [correctedV2];
  if (index % 3 === 0) {
    batch2.push(
      r({
        id: id('exchange'),
        code: 'EX04',
        original: id('combo'),
        items: [
          { product: 'P-FRIES', name: 'Fries', qty: -1, unit: 3 * p },
          { product: 'P-RINGS', name: 'Onion Rings', qty: 1, unit: 4 * p },
        ],
      }),
    );
  }
  if (index % 5 === 0) {
    batch1.push(
      r({
        id: id('deposit'),
        code: 'DP20',
        items: [{ product: 'P-CATERING-DEP', name: 'Catering deposit', qty: 1, unit: 20 * p }],
        tax: 0,
        payments: [{ type: 'DEPOSIT', method: 'CASH', amount: 'rest' }],
      }),
    );
    batch2.push(
      r({
        id: id('catering'),
        code: 'S01',
        items: [{ product: 'P-CATERING', name: 'Catering tray', qty: 1, unit: 50 * p }],
        payments: [
          { type: 'DEPOSIT_APPLIED', method: 'CASH', amount: 20 * p },
          { type: 'SALE', method: 'CREDIT_CARD', amount: 'rest' },
        ],
      }),
    );
  }
  if (withLateCode) {
    batch2.push(r({ id: id('late'), code: lateCode, items: [{ product: 'P-PLATTER', name: 'Platter', qty: 3, unit: 12 * p }] }));
  }
  return [batch1, batch2];
}

async function loadMonth(partner: TestPartner, profile: CurrencyProfile, storeId: string, mapping: Record<string, string>, late: boolean) {
  const latest = new Map<string, TradeRecord[]>();
  const closes: (() => Promise<void>)[] = [];
  const loadDay = async (businessDate: string, index: number): Promise<void> => {
    const day: StoreDay = { profile, storeId, businessDate };
    const batches = dayRecords(day, index, late && firstDays.has(businessDate));
    for (const [i, records] of batches.entries()) await push(service, partner, tradeBatch(day, i + 1, records));
    const sent = batches.flat();
    latest.set(businessDate, [...new Map(sent.map((rec) => [rec.trade_record_id, rec])).values()]);
    // The partner's POS counts every code it uses, the late one included.
    closes.push(() => sendClose(service, partner, dailyClose(day, batches.length, controlTotals(profile, sent, { mapping }))));
  };
  // A few days at a time, as several stores would push.
  for (let i = 0; i < days.length; i += 4) {
    await Promise.all(days.slice(i, i + 4).map((d, k) => loadDay(d, i + k)));
  }
  return { latest, closes };
}

/**
 * Everything HQ's files should say about one partner and currency, from the records alone (integer
 * minor units). Not the control-totals calculator: the report files hold back unmapped transactions
 * (rows, payments and all) and split the figures per day, which a daily close never does.
 */
function independent(month: PartnerMonth, mapping: Readonly<Record<string, string>>) {
  const minor = (text: string) => toMinor(text, month.profile.digits);
  const perDay = new Map<string, { net: number; tax: number; tip: number; count: number }>();
  let payments = 0;
  let lines = 0;
  const unmapped = { count: 0, net: 0, tax: 0, first: '', last: '' };
  for (const [date, records] of month.latest) {
    const sums = { net: 0, tax: 0, tip: 0, count: 0 };
    for (const rec of records) {
      const standard = mapping[rec.source_transaction_type];
      const net = minor(rec.total_amount) - minor(rec.tax_amount) - minor(rec.tip_amount);
      if (standard === undefined) {
        unmapped.count += 1;
        unmapped.net += net;
        unmapped.tax += minor(rec.tax_amount);
        unmapped.first = unmapped.first === '' || date < unmapped.first ? date : unmapped.first;
        unmapped.last = date > unmapped.last ? date : unmapped.last;
        continue;
      }
      lines += rec.items.length;
      for (const pay of rec.payments) payments += (SUGGESTED_DIRECTIONS[pay.payment_type] ?? 0) * minor(pay.amount);
      if (!revenue.has(standard)) continue;
      sums.net += net;
      sums.tax += minor(rec.tax_amount);
      sums.tip += minor(rec.tip_amount);
      sums.count += 1;
    }
    perDay.set(date, sums);
  }
  return { perDay, payments, lines, unmapped };
}

/** A figure in minor units as DuckDB prints DECIMAL(38,4). */
function scale4(minorUnits: number, digits: number): string {
  const sign = minorUnits < 0 ? '-' : '';
  const abs = Math.abs(minorUnits);
  const unit = 10 ** digits;
  const fraction = digits === 0 ? '' : String(abs % unit).padStart(digits, '0');
  return `${sign}${Math.floor(abs / unit)}.${fraction.padEnd(4, '0')}`;
}

/** A query's decimal string (currency digits) at DuckDB's scale 4. */
function atScale4(text: string): string {
  const [whole, fraction = ''] = text.split('.');
  return `${whole}.${fraction.padEnd(4, '0')}`;
}

async function downloaded(): Promise<{ db: DuckDb; root: string }> {
  const { root } = await downloadReports(service.services.storage.reports);
  roots.push(root);
  return { db: await DuckDb.open(), root };
}

/** Waits until every store-day of both partners has its files written with the expected number of held-back transactions. */
async function reportsSettled(unmappedDays: number): Promise<void> {
  const storeDays = new ReportStoreDayRepository(service.services.storage.tables.reportStoreDays);
  const count = async () => {
    let written = 0;
    let withUnmapped = 0;
    for (const month of [a, b]) {
      for await (const { row } of storeDays.listRange(month.partner.partnerId, from, to)) {
        written += 1;
        if (row.counts.unmapped_transactions > 0) withUnmapped += 1;
      }
    }
    return { written, withUnmapped };
  };
  const settled = await eventually(count, (c) => c.written === 2 * days.length && c.withUnmapped === unmappedDays, 60_000);
  expect(settled).toEqual({ written: 2 * days.length, withUnmapped: unmappedDays });
}

const clock = movableClock();

beforeAll(async () => {
  // Reconciled at once; pushes are stale for the sweep after a second of the service's clock.
  service = await startTestService({ settings: { RECONCILE_DELAY_SECONDS: '0', BATCH_SWEEP_DELAY_SECONDS: '1' }, services: { clock } });
  const setUp = async (profile: CurrencyProfile, mapping: Record<string, string>): Promise<{ partner: TestPartner; storeId: string }> => {
    const storeId = `${profile.currency}-${randomUUID().slice(0, 6)}`;
    const partner = await service.createPartner({ stores: [storeId] });
    const day: StoreDay = { profile, storeId, businessDate: from };
    expect((await service.call(partner, 'PUT', 'stores', { batch_id: randomUUID(), stores: [storeBody(day)] })).status).toBe(202);
    expect((await service.call(partner, 'PUT', 'mappings/transaction-types', mappingBody(mapping))).status).toBe(202);
    return { partner, storeId };
  };
  const setA = await setUp(USD, withoutLateCode);
  const setB = await setUp(JPY, POS_CODES);
  const monthA = await loadMonth(setA.partner, USD, setA.storeId, mappingA, true);
  const monthB = await loadMonth(setB.partner, JPY, setB.storeId, POS_CODES, false);
  a = { ...setA, profile: USD, latest: monthA.latest };
  b = { ...setB, profile: JPY, latest: monthB.latest };
  // The timer sweep (run here rather than waiting for its schedule) stages every batch's fragment,
  // then the closes arrive and each reconciliation assembles its day from them.
  clock.advance(1_100);
  await service.services.sweeper.sweepStale();
  // Every batch's fragment is staged: most by this sweep, some perhaps by the scheduled one.
  expect(await stagedFragments()).toBe(4 * days.length);
  for (const close of [...monthA.closes, ...monthB.closes]) await close();
  await reportsSettled(firstDays.size);
}, 240_000);

async function stagedFragments(): Promise<number> {
  let count = 0;
  for await (const blob of service.services.storage.reports.listBlobsFlat({ prefix: '_state/fragments/' })) {
    if (blob.name.endsWith('.fragment')) count += 1;
  }
  return count;
}

afterAll(async () => {
  await service.stop();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** DuckDB's revenue totals per partner, day and currency. */
async function duckSales(db: DuckDb, root: string) {
  return db.rows(
    `SELECT partner_id, strftime(business_date, '%Y-%m-%d') AS business_date, currency,
            sum(net_sales) FILTER (WHERE is_revenue) AS net, sum(tax_amount) FILTER (WHERE is_revenue) AS tax,
            sum(tip_amount) FILTER (WHERE is_revenue) AS tip, count(*) FILTER (WHERE is_revenue) AS n
     FROM ${dataset(root, 'sales_transactions')} GROUP BY ALL ORDER BY ALL`,
  );
}

function expectedSales(mappingOfA: Readonly<Record<string, string>>) {
  const rows: Record<string, string>[] = [];
  for (const [month, mapping] of [
    [a, mappingOfA],
    [b, POS_CODES],
  ] as const) {
    for (const [date, s] of independent(month, mapping).perDay) {
      const d = month.profile.digits;
      rows.push({
        partner_id: month.partner.partnerId,
        business_date: date,
        currency: month.profile.currency,
        net: scale4(s.net, d),
        tax: scale4(s.tax, d),
        tip: scale4(s.tip, d),
        n: String(s.count),
      });
    }
  }
  const key = (r: Record<string, string>) => `${r.partner_id}|${r.business_date}|${r.currency}`;
  return rows.sort((x, y) => (key(x) < key(y) ? -1 : 1));
}

async function checkAgainstIndependent(db: DuckDb, root: string, mappingOfA: Readonly<Record<string, string>>): Promise<void> {
  expect(await duckSales(db, root)).toEqual(expectedSales(mappingOfA));
  for (const [month, mapping] of [
    [a, mappingOfA],
    [b, POS_CODES],
  ] as const) {
    const expected = independent(month, mapping);
    const where = `WHERE partner_id = '${month.partner.partnerId}'`;
    expect(await db.row(`SELECT sum(signed_amount) AS total FROM ${dataset(root, 'sales_payments')} ${where}`)).toEqual({
      total: scale4(expected.payments, month.profile.digits),
    });
    expect(await db.row(`SELECT count(*) AS n FROM ${dataset(root, 'sales_lines')} ${where}`)).toEqual({ n: String(expected.lines) });
  }
}

/** The sales query's totals per partner and day, at DuckDB's scale. */
async function queriedSales() {
  const groups = await service.services.salesQuery.totals({ from, to, groupBy: ['partner', 'day'] });
  return groups.map((g) => ({
    partner_id: g.partner_id,
    business_date: g.business_date,
    currency: g.currency,
    net: atScale4(g.net_sales),
    tax: atScale4(g.tax_amount),
    tip: atScale4(g.tip_amount),
    n: String(g.transaction_count),
  }));
}

describe('a month with a code unmapped for the first four days', () => {
  let db: DuckDb;
  let root: string;
  beforeAll(async () => {
    ({ db, root } = await downloaded());
  });
  afterAll(() => {
    db.close();
  });

  it('DuckDB totals per partner, day and currency equal the independent computation to the minor unit', async () => {
    await checkAgainstIndependent(db, root, withoutLateCode);
  });

  it('the held-back transactions are in unmapped_transactions, and the unmapped query says the same', async () => {
    const expected = independent(a, withoutLateCode).unmapped;
    const held = await db.row(
      `SELECT count(*) AS n, sum(net_sales) AS net, sum(tax_amount) AS tax, min(strftime(business_date, '%Y-%m-%d')) AS first,
              max(strftime(business_date, '%Y-%m-%d')) AS last
       FROM ${dataset(root, 'unmapped_transactions')} WHERE partner_id = '${a.partner.partnerId}' AND source_transaction_type = '${lateCode}'`,
    );
    expect(held).toEqual({
      n: String(firstDays.size),
      net: scale4(expected.net, 2),
      tax: scale4(expected.tax, 2),
      first: from,
      last: lastUnmappedDay,
    });
    expect(await service.services.unmappedQuery.codes()).toEqual(
      expect.arrayContaining([
        {
          partner_id: a.partner.partnerId,
          source_transaction_type: lateCode,
          transaction_count: firstDays.size,
          first_business_date: from,
          last_business_date: lastUnmappedDay,
          by_currency: [
            {
              currency: 'USD',
              transaction_count: firstDays.size,
              net_sales: (expected.net / 100).toFixed(2),
              tax_amount: (expected.tax / 100).toFixed(2),
              tip_amount: '0.00',
            },
          ],
        },
      ]),
    );
    expect(await service.services.unmappedQuery.codes(b.partner.partnerId)).toEqual([]);
  });

  it("the sales query's totals equal DuckDB's", async () => {
    const mine = (await queriedSales()).filter((g) => g.partner_id === a.partner.partnerId || g.partner_id === b.partner.partnerId);
    expect(mine).toEqual(await duckSales(db, root));
  });

  it('every trade-record batch has a staged fragment, none of them a report file', async () => {
    const names: string[] = [];
    for await (const blob of service.services.storage.reports.listBlobsFlat({ prefix: '_state/fragments/' })) names.push(blob.name);
    for (const month of [a, b]) {
      expect(names.filter((n) => n.includes(`partner_id=${month.partner.partnerId}/`))).toHaveLength(2 * days.length);
    }
    expect(names.every((n) => n.endsWith('.fragment'))).toBe(true);
  });
});

describe('after the mapping of the late code is uploaded', () => {
  let db: DuckDb;
  let root: string;
  beforeAll(async () => {
    expect((await service.call(a.partner, 'PUT', 'mappings/transaction-types', mappingBody(mappingA))).status).toBe(202);
    // The upload reconciles the first days again, and each reconciliation rewrites its files.
    await reportsSettled(0);
    ({ db, root } = await downloaded());
  }, 120_000);
  afterAll(() => {
    db.close();
  });

  it('DuckDB totals equal the independent computation with the code mapped, and nothing is held back', async () => {
    await checkAgainstIndependent(db, root, mappingA);
    const names = await reportNames(service.services.storage.reports);
    expect(names.filter((n) => n.startsWith('unmapped_transactions/'))).toEqual([]);
    expect(await service.services.unmappedQuery.codes(a.partner.partnerId)).toEqual([]);
  });

  it("each day's run forgot the note that scheduled it once it had written the day, so a later upload runs none again", async () => {
    const notes = new UnmappedUsageRepository(service.services.storage.tables.unmappedUsage);
    const left = () => allNotes((after) => notes.listPage(a.partner.partnerId, after, 100));
    expect(await eventually(left, (listed) => listed.length === 0)).toEqual([]);
  });

  it("store_days says MATCHED for every day, and the sales query's totals equal DuckDB's", async () => {
    expect(
      await db.rows(
        `SELECT status, count(*) AS n FROM ${dataset(root, 'store_days')} WHERE partner_id = '${a.partner.partnerId}' GROUP BY ALL`,
      ),
    ).toEqual([{ status: 'MATCHED', n: String(days.length) }]);
    const mine = (await queriedSales()).filter((g) => g.partner_id === a.partner.partnerId || g.partner_id === b.partner.partnerId);
    expect(mine).toEqual(await duckSales(db, root));
  });

  it('the sales query groups by standard type per currency, never across currencies', async () => {
    const groups = await service.services.salesQuery.totals({ from, to, groupBy: ['standard_type'], partnerId: a.partner.partnerId });
    const byType = await db.rows(
      `SELECT standard_type, currency, sum(net_sales) AS net, count(*) AS n FROM ${dataset(root, 'sales_transactions')}
       WHERE partner_id = '${a.partner.partnerId}' AND is_revenue GROUP BY ALL ORDER BY ALL`,
    );
    expect(
      groups.map((g) => ({
        standard_type: g.standard_type,
        currency: g.currency,
        net: atScale4(g.net_sales),
        n: String(g.transaction_count),
      })),
    ).toEqual(byType);
  });

  it("hq reports rebuild rewrites a partner's store-days in range with a progress line each, and the figures stay the same", async () => {
    const span = days.slice(0, 5);
    const result = await service.hq('reports', 'rebuild', '--partner', b.partner.partnerId, '--from', from, '--to', span.at(-1) ?? '');
    expect(result.code).toBe(0);
    expect(result.err).toEqual(span.map((d, i) => `[${i + 1}/${span.length}] ${b.partner.partnerId} ${b.storeId} ${d}: written`));
    expect(result.out).toEqual([
      `${span.length} of ${span.length} reconciled store-day(s) rewritten`,
      'stores file: written',
      'products file: none (the partner has no products)',
      'transaction_type_mappings file: written',
    ]);
    const again = await downloaded();
    try {
      expect(await duckSales(again.db, again.root)).toEqual(await duckSales(db, root));
    } finally {
      again.db.close();
    }
  });
});
