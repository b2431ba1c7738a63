import { expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { buildStamp } from '../../../../src/reports/buildStamp.js';
import { maxUnmappedTotalsPerRow, type StoreDayRow } from '../../../../src/reports/ReconciledStoreDay.js';
import type { ReportStoreDays } from '../../../../src/services/ports/ReportStoreDays.js';
import { putRow, salesTotals, storeDayRowWith, unmappedTotals } from '../../reports/storeDayRowBuilder.js';
import { freshPartnerId } from './freshIds.js';

/** A MATCHED store-day with one line of USD sales (amounts in ten-thousandths, as stored). */
function row(storeId: string, generatedAt: string, netSales = '125000'): StoreDayRow {
  return {
    ...storeDayRowWith(storeId, [salesTotals('USD', 'SALE', { count: 2, net: netSales, tax: '12500' })]),
    report_generated_at: generatedAt,
  };
}

const byStore = (rows: StoreDayRow[]) => [...rows].sort((a, b) => (a.store_id < b.store_id ? -1 : 1));

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** What every ReportStoreDays implementation does. */
export function reportStoreDaysSuite(make: () => Promise<ReportStoreDays>): void {
  it('keeps a row holding as many held-back totals as a row may, each under a long code of its own', async () => {
    const storeDays = await make();
    const partnerId = freshPartnerId();
    // Codes that share little, so that compression cannot make the row small.
    const unmapped = Array.from({ length: maxUnmappedTotalsPerRow }, (_, i) =>
      unmappedTotals('USD', `${String(i).padStart(4, '0')}-${createHash('sha512').update(String(i)).digest('base64')}`.slice(0, 128), {
        count: i + 1,
        net: String(123_456_789 * (i + 1)),
      }),
    );
    const big = { ...storeDayRowWith('SEA', [], unmapped), report_generated_at: '2026-03-02T01:00:00.000Z' };
    expect(await putRow(storeDays, partnerId, '2026-03-01', big)).toBe(true);
    expect(await storeDays.list(partnerId, '2026-03-01')).toEqual([big]);
    expect(await storeDays.get(partnerId, '2026-03-01', 'SEA')).toEqual(big);
    expect(await collect(storeDays.listRange(partnerId))).toEqual([{ businessDate: '2026-03-01', row: big }]);
  });

  it("keeps one row per store of a partner's date, store ids a key cannot hold included", async () => {
    const storeDays = await make();
    const partnerId = freshPartnerId();
    const first = row('SEA/1#?', '2026-03-02T01:00:00.000Z');
    const second = row('TKY-001', '2026-03-02T01:00:00.000Z');
    expect(await putRow(storeDays, partnerId, '2026-03-01', first)).toBe(true);
    expect(await putRow(storeDays, partnerId, '2026-03-01', second)).toBe(true);
    expect(byStore(await storeDays.list(partnerId, '2026-03-01'))).toEqual([first, second]);
    expect(await storeDays.list(partnerId, '2026-03-02')).toEqual([]);
  });

  it("reads one store-day's row by itself, and nothing for a day or store without one", async () => {
    const storeDays = await make();
    const partnerId = freshPartnerId();
    const odd = {
      ...storeDayRowWith('SEA/1#?', [], [unmappedTotals('USD', 'X9', { count: 2, net: '125000' })]),
      report_generated_at: '2026-03-02T01:00:00.000Z',
    };
    await putRow(storeDays, partnerId, '2026-03-01', odd);
    await putRow(storeDays, partnerId, '2026-03-01', row('TKY-001', '2026-03-02T01:00:00.000Z'));
    expect(await storeDays.get(partnerId, '2026-03-01', 'SEA/1#?')).toEqual(odd);
    expect(await storeDays.get(partnerId, '2026-03-02', 'SEA/1#?')).toBeUndefined();
    expect(await storeDays.get(partnerId, '2026-03-01', 'SEA')).toBeUndefined();
    expect(await storeDays.get(freshPartnerId(), '2026-03-01', 'TKY-001')).toBeUndefined();
  });

  it('a row from an earlier build never replaces a later one; a later or equal one does', async () => {
    const storeDays = await make();
    const partnerId = freshPartnerId();
    await putRow(storeDays, partnerId, '2026-03-01', row('S1', '2026-03-02T01:00:00.000Z', '100'));
    expect(await putRow(storeDays, partnerId, '2026-03-01', row('S1', '2026-03-02T00:59:59.999Z', '200'))).toBe(false);
    expect((await storeDays.list(partnerId, '2026-03-01')).map((r) => r.sales.sales[0]?.net_sales)).toEqual(['100']);
    expect(await putRow(storeDays, partnerId, '2026-03-01', row('S1', '2026-03-02T01:00:00.000Z', '300'))).toBe(true);
    expect(await putRow(storeDays, partnerId, '2026-03-01', row('S1', '2026-03-02T02:00:00.000Z', '400'))).toBe(true);
    expect((await storeDays.list(partnerId, '2026-03-01')).map((r) => r.sales.sales[0]?.net_sales)).toEqual(['400']);
  });

  it("orders rows by their build's stamp, not by when their files say they were built", async () => {
    const storeDays = await make();
    const partnerId = freshPartnerId();
    const laterRun = buildStamp(2, '2026-03-02T01:00:00.000Z');
    expect(await storeDays.putIfNewer(partnerId, '2026-03-01', row('S1', '2026-03-02T01:00:00.000Z', '100'), laterRun)).toBe(true);
    const earlierRun = buildStamp(1, '2026-03-02T02:00:00.000Z');
    expect(await storeDays.putIfNewer(partnerId, '2026-03-01', row('S1', '2026-03-02T02:00:00.000Z', '200'), earlierRun)).toBe(false);
    expect((await storeDays.list(partnerId, '2026-03-01')).map((r) => r.sales.sales[0]?.net_sales)).toEqual(['100']);
  });

  it('a row read ahead that a later build has replaced since does not let an earlier build back in', async () => {
    const storeDays = await make();
    const partnerId = freshPartnerId();
    await putRow(storeDays, partnerId, '2026-03-01', row('S1', '2026-03-02T01:00:00.000Z', '100'));
    const ahead = storeDays.readAhead?.(partnerId, '2026-03-01', 'S1');
    await putRow(storeDays, partnerId, '2026-03-01', row('S1', '2026-03-02T03:00:00.000Z', '300'));
    expect(await putRow(storeDays, partnerId, '2026-03-01', row('S1', '2026-03-02T02:00:00.000Z', '200'), ahead)).toBe(false);
    expect((await storeDays.list(partnerId, '2026-03-01')).map((r) => r.sales.sales[0]?.net_sales)).toEqual(['300']);
  });

  it('lists a range of dates inclusive, in date order, either bound absent', async () => {
    const storeDays = await make();
    const partnerId = freshPartnerId();
    for (const date of ['2026-03-03', '2026-02-28', '2026-03-01', '2026-03-02']) {
      await putRow(storeDays, partnerId, date, row('S1', '2026-03-04T00:00:00.000Z'));
    }
    const dates = async (from?: string, to?: string) =>
      (await collect(storeDays.listRange(partnerId, from, to))).map((r) => r.businessDate);
    expect(await dates('2026-03-01', '2026-03-02')).toEqual(['2026-03-01', '2026-03-02']);
    expect(await dates('2026-03-02')).toEqual(['2026-03-02', '2026-03-03']);
    expect(await dates(undefined, '2026-02-28')).toEqual(['2026-02-28']);
    expect(await dates()).toEqual(['2026-02-28', '2026-03-01', '2026-03-02', '2026-03-03']);
    const [listed] = await collect(storeDays.listRange(partnerId, '2026-03-01', '2026-03-01'));
    expect(listed?.row).toEqual(row('S1', '2026-03-04T00:00:00.000Z'));
  });

  it("never lists another partner's rows, one whose id starts with this one's included", async () => {
    const storeDays = await make();
    const a = freshPartnerId();
    const longer = `${a}x`;
    await putRow(storeDays, a, '2026-03-01', row('A', '2026-03-02T00:00:00.000Z'));
    await putRow(storeDays, longer, '2026-03-01', row('B', '2026-03-02T00:00:00.000Z'));
    expect((await storeDays.list(a, '2026-03-01')).map((r) => r.store_id)).toEqual(['A']);
    expect((await collect(storeDays.listRange(a))).map((r) => r.row.store_id)).toEqual(['A']);
    expect((await collect(storeDays.listRange(longer))).map((r) => r.row.store_id)).toEqual(['B']);
    expect(await collect(storeDays.listRange(freshPartnerId()))).toEqual([]);
  });
}
