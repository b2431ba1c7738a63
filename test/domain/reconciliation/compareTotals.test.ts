import { describe, expect, it } from 'vitest';
import { compareTotals } from '../../../src/domain/reconciliation/compareTotals.js';
import type { ControlTotals } from '../../../src/domain/reconciliation/ControlTotals.js';

const usd: ControlTotals = {
  trade_record_count: 10,
  item_row_count: 25,
  payment_row_count: 11,
  net_sales_amount: '100.00',
  tax_amount: '10.25',
  tip_amount: '5.00',
  payment_total_amount: '115.25',
};

describe('compareTotals', () => {
  it('matches identical totals', () => {
    expect(compareTotals(usd, { ...usd }, 'USD')).toEqual({ status: 'MATCHED', differences: [] });
  });

  it('compares amounts as numbers, not as text', () => {
    expect(compareTotals({ ...usd, tip_amount: '5' }, usd, 'USD').status).toBe('MATCHED');
  });

  it('tolerates exactly one minor unit of the currency', () => {
    const kwd = { ...usd, net_sales_amount: '100.000' };
    expect(compareTotals(kwd, { ...kwd, net_sales_amount: '100.001' }, 'KWD').status).toBe('MATCHED');
    expect(compareTotals(kwd, { ...kwd, net_sales_amount: '100.002' }, 'KWD').differences).toEqual(['net_sales_amount']);
    expect(compareTotals(kwd, { ...kwd, net_sales_amount: '100.010' }, 'KWD').differences).toEqual(['net_sales_amount']);

    const jpy = { ...usd, tax_amount: '988' };
    expect(compareTotals(jpy, { ...jpy, tax_amount: '987' }, 'JPY').status).toBe('MATCHED');
    expect(compareTotals(jpy, { ...jpy, tax_amount: '986' }, 'JPY').differences).toEqual(['tax_amount']);
  });

  it('lists every differing field in the contract order', () => {
    const actual: ControlTotals = {
      trade_record_count: 9,
      item_row_count: 25,
      payment_row_count: 12,
      net_sales_amount: '99.90',
      tax_amount: '10.25',
      tip_amount: '5.00',
      payment_total_amount: '115.30',
    };
    expect(compareTotals(usd, actual, 'USD')).toEqual({
      status: 'MISMATCHED',
      differences: ['trade_record_count', 'payment_row_count', 'net_sales_amount', 'payment_total_amount'],
    });
  });

  it('treats an amount that is not a number as a difference', () => {
    expect(compareTotals({ ...usd, tip_amount: 'n/a' }, usd, 'USD').differences).toEqual(['tip_amount']);
  });
});
