import { beforeEach, describe, expect, it } from 'vitest';
import { SalesQuery } from '../../../src/services/reports/SalesQuery.js';
import { InMemoryPartners } from '../../support/memory/InMemoryPartners.js';
import { InMemoryReportStoreDays } from '../../support/memory/InMemoryReportStoreDays.js';
import { putRow, salesTotals, storeDayRowWith } from './storeDayRowBuilder.js';

let storeDays: InMemoryReportStoreDays;
let query: SalesQuery;

beforeEach(async () => {
  storeDays = new InMemoryReportStoreDays();
  const partners = new InMemoryPartners();
  query = new SalesQuery(storeDays, partners);
  const now = new Date('2026-03-05T00:00:00Z');
  await partners.create('acme', 'Acme', now);
  await partners.create('bolt', 'Bolt', now);
  // Ten-thousandths: 125000 is 12.50.
  await putRow(
    storeDays,
    'acme',
    '2026-03-01',
    storeDayRowWith('SEA', [
      salesTotals('USD', 'SALE', { count: 2, net: '125000', tax: '12500', tip: '5000' }),
      salesTotals('USD', 'DEPOSIT', { count: 1, net: '990000', isRevenue: false }),
    ]),
  );
  await putRow(storeDays, 'acme', '2026-03-01', storeDayRowWith('TKY', [salesTotals('JPY', 'SALE', { count: 3, net: '15000000' })]));
  await putRow(
    storeDays,
    'acme',
    '2026-03-02',
    storeDayRowWith('SEA', [salesTotals('USD', 'REFUND', { count: 1, net: '-25000', tax: '-2500' })]),
  );
  await putRow(storeDays, 'bolt', '2026-03-02', storeDayRowWith('SEA', [salesTotals('USD', 'SALE', { count: 1, net: '10000' })]));
  await putRow(storeDays, 'acme', '2026-03-04', storeDayRowWith('SEA', [salesTotals('USD', 'SALE', { count: 9, net: '90000' })]));
});

describe('sales totals', () => {
  it('sums revenue per currency, never across currencies, with the currency digits, over the dates in range', async () => {
    const groups = await query.totals({ from: '2026-03-01', to: '2026-03-02', groupBy: [], partnerId: 'acme' });
    expect(groups).toEqual([
      { currency: 'JPY', net_sales: '1500', tax_amount: '0', tip_amount: '0', transaction_count: 3 },
      { currency: 'USD', net_sales: '10.00', tax_amount: '1.00', tip_amount: '0.50', transaction_count: 3 },
    ]);
  });

  it('groups by partner, store, standard type and day in that order, across every partner when none is named', async () => {
    const groups = await query.totals({ from: '2026-03-02', to: '2026-03-02', groupBy: ['store', 'standard_type', 'day'] });
    expect(groups).toEqual([
      {
        partner_id: 'acme',
        store_id: 'SEA',
        standard_type: 'REFUND',
        business_date: '2026-03-02',
        currency: 'USD',
        net_sales: '-2.50',
        tax_amount: '-0.25',
        tip_amount: '0.00',
        transaction_count: 1,
      },
      {
        partner_id: 'bolt',
        store_id: 'SEA',
        standard_type: 'SALE',
        business_date: '2026-03-02',
        currency: 'USD',
        net_sales: '1.00',
        tax_amount: '0.00',
        tip_amount: '0.00',
        transaction_count: 1,
      },
    ]);
  });

  it("keeps one partner's figures out of another's", async () => {
    const groups = await query.totals({ from: '2026-03-01', to: '2026-03-31', groupBy: ['partner'], partnerId: 'bolt' });
    expect(groups.map((g) => [g.partner_id, g.transaction_count])).toEqual([['bolt', 1]]);
  });
});
