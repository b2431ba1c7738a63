import { beforeEach, describe, expect, it } from 'vitest';
import { UnmappedQuery } from '../../../src/services/reports/UnmappedQuery.js';
import { InMemoryPartners } from '../../support/memory/InMemoryPartners.js';
import { InMemoryReportStoreDays } from '../../support/memory/InMemoryReportStoreDays.js';
import { InMemoryUnmappedCodes } from '../../support/memory/InMemoryUnmappedCodes.js';
import type { StoreDayRow } from '../../../src/reports/ReconciledStoreDay.js';
import { putRow, storeDayRowWith, unmappedTotals } from './storeDayRowBuilder.js';

let storeDays: InMemoryReportStoreDays;
let notes: InMemoryUnmappedCodes;
let query: UnmappedQuery;
/** Store-day rows read by the query. */
let reads: number;

/** Writes a row as the report writer does: its held-back codes are noted first. */
async function written(partnerId: string, businessDate: string, row: StoreDayRow): Promise<void> {
  await notes.record(
    partnerId,
    row.store_id,
    businessDate,
    row.sales.unmapped.map((u) => u.source_transaction_type),
  );
  await putRow(storeDays, partnerId, businessDate, row);
}

beforeEach(async () => {
  storeDays = new InMemoryReportStoreDays();
  notes = new InMemoryUnmappedCodes();
  const partners = new InMemoryPartners();
  reads = 0;
  const counted = {
    get: (partnerId: string, businessDate: string, storeId: string) => {
      reads += 1;
      return storeDays.get(partnerId, businessDate, storeId);
    },
  };
  query = new UnmappedQuery(counted, partners, notes);
  const now = new Date('2026-03-05T00:00:00Z');
  await partners.create('bolt', 'Bolt', now);
  await partners.create('acme', 'Acme', now);
  await written('acme', '2026-03-03', storeDayRowWith('SEA', [], [unmappedTotals('USD', 'X9', { count: 2, net: '125000', tax: '12500' })]));
  await written(
    'acme',
    '2026-03-01',
    storeDayRowWith(
      'TKY',
      [],
      [unmappedTotals('JPY', 'X9', { count: 1, net: '5000000' }), unmappedTotals('JPY', 'A1', { count: 1, net: '10000' })],
    ),
  );
  await written('bolt', '2026-03-02', storeDayRowWith('SEA', [], [unmappedTotals('USD', 'Z', { count: 4, net: '40000' })]));
});

describe('unmapped codes', () => {
  it('sums each code per currency over its days, with its first and last date, ordered by partner then code', async () => {
    expect(await query.codes()).toEqual([
      {
        partner_id: 'acme',
        source_transaction_type: 'A1',
        transaction_count: 1,
        first_business_date: '2026-03-01',
        last_business_date: '2026-03-01',
        by_currency: [{ currency: 'JPY', transaction_count: 1, net_sales: '1', tax_amount: '0', tip_amount: '0' }],
      },
      {
        partner_id: 'acme',
        source_transaction_type: 'X9',
        transaction_count: 3,
        first_business_date: '2026-03-01',
        last_business_date: '2026-03-03',
        by_currency: [
          { currency: 'JPY', transaction_count: 1, net_sales: '500', tax_amount: '0', tip_amount: '0' },
          { currency: 'USD', transaction_count: 2, net_sales: '12.50', tax_amount: '1.25', tip_amount: '0.00' },
        ],
      },
      {
        partner_id: 'bolt',
        source_transaction_type: 'Z',
        transaction_count: 4,
        first_business_date: '2026-03-02',
        last_business_date: '2026-03-02',
        by_currency: [{ currency: 'USD', transaction_count: 4, net_sales: '4.00', tax_amount: '0.00', tip_amount: '0.00' }],
      },
    ]);
  });

  it("lists one partner's codes only when it is named, and forgets a code its day no longer holds back", async () => {
    await putRow(storeDays, 'bolt', '2026-03-02', { ...storeDayRowWith('SEA', []), report_generated_at: '2026-03-03T00:00:00.000Z' });
    expect(await query.codes('bolt')).toEqual([]);
    expect((await query.codes('acme')).map((c) => c.source_transaction_type)).toEqual(['A1', 'X9']);
  });

  it('reads each noted store-day once, however many of its codes are noted, and no day without a note', async () => {
    for (let day = 10; day < 30; day++) await putRow(storeDays, 'acme', `2026-03-${day}`, storeDayRowWith('SEA', []));
    expect((await query.codes('acme')).map((c) => c.transaction_count)).toEqual([1, 3]);
    expect(reads).toBe(2);
  });

  it('takes what a noted day holds back now, a code no longer noted included, and nothing from a day gone', async () => {
    const { notes: listed } = await notes.listPage('acme', undefined, 10);
    const x9 = listed.find((note) => note.sourceCode === 'X9' && note.storeId === 'TKY');
    if (!x9) throw new Error('the note of X9 at TKY is missing');
    await notes.remove('acme', x9);
    await notes.record('acme', 'GONE', '2026-03-04', ['X9']);
    const codes = await query.codes('acme');
    expect(codes.map((c) => [c.source_transaction_type, c.transaction_count])).toEqual([
      ['A1', 1],
      ['X9', 3],
    ]);
  });
});
