import { describe, expect, it } from 'vitest';
import { DayAggregator } from '../../../src/domain/reconciliation/DayAggregator.js';
import type { PaymentDirection } from '../../../src/domain/reconciliation/paymentDirection.js';
import type { TradeRecordSummary } from '../../../src/domain/reconciliation/TradeRecordSummary.js';

const mapping = new Map([
  ['S', 'SALE'],
  ['R', 'REFUND'],
  ['T', 'TRAINING'],
]);

function row(n: number, overrides: Partial<TradeRecordSummary> = {}): TradeRecordSummary {
  return {
    trade_record_id: `T${n}`,
    version: 1,
    last_modified_at: '2026-11-20T12:00:00Z',
    source_transaction_type: 'S',
    currency: 'USD',
    total_amount: '11.07',
    tax_amount: '0.96',
    tip_amount: '1.00',
    item_row_count: 3,
    payment_row_count: 1,
    payments: [{ payment_type: 'SALE', amount: '11.07' }],
    batch_seq: 1 + Math.floor(n / 500),
    batch_id: `batch-${Math.floor(n / 500)}`,
    ...overrides,
  };
}

/** Every collection an object holds directly, with its size. */
function collectionSizes(value: object): number[] {
  return Object.values(value).flatMap((v: unknown) =>
    Array.isArray(v) ? [v.length] : v instanceof Map || v instanceof Set ? [v.size] : [],
  );
}

describe('DayAggregator', () => {
  it('aggregates 100,000 transactions without keeping any per transaction', () => {
    const aggregator = new DayAggregator({ currency: 'USD', mapping });
    for (let n = 0; n < 100_000; n += 1) aggregator.add(row(n));

    const { actual, diagnostics } = aggregator.result();
    expect(actual).toEqual({
      trade_record_count: 100_000,
      item_row_count: 300_000,
      payment_row_count: 100_000,
      net_sales_amount: '911000.00',
      tax_amount: '96000.00',
      tip_amount: '100000.00',
      payment_total_amount: '1107000.00',
    });
    expect(diagnostics.batch_seqs).toHaveLength(200);
    // Only bounded collections: 200 batch numbers, no row per transaction.
    expect(Math.max(0, ...collectionSizes(aggregator))).toBeLessThanOrEqual(200);
  });

  it('keeps counts and payments of non-revenue types but not their sales amounts', () => {
    const aggregator = new DayAggregator({ currency: 'USD', mapping });
    aggregator.add(row(1));
    aggregator.add(row(2, { source_transaction_type: 'T', payments: [], payment_row_count: 0 }));
    aggregator.add(
      row(3, {
        source_transaction_type: 'R',
        total_amount: '-11.07',
        tax_amount: '-0.96',
        tip_amount: '0.00',
        payments: [{ payment_type: 'REFUND', amount: '11.07' }],
      }),
    );
    const { actual, diagnostics } = aggregator.result();
    expect(actual).toEqual({
      trade_record_count: 3,
      item_row_count: 9,
      payment_row_count: 2,
      // 11.07 − 0.96 − 1.00 for the sale, −11.07 + 0.96 for the refund of its food.
      net_sales_amount: '-1.00',
      tax_amount: '0.00',
      tip_amount: '1.00',
      payment_total_amount: '0.00',
    });
    expect(diagnostics.revenue_trade_record_count).toBe(2);
    // The TRAINING transaction's tax and tip, left out of the figures above.
    expect(diagnostics.non_revenue).toEqual({ tax_amount: '0.96', tip_amount: '1.00' });
  });

  it('formats with exactly the minor-unit digits of the currency and never as negative zero', () => {
    const kwd = new DayAggregator({ currency: 'KWD', mapping });
    kwd.add(row(1, { currency: 'KWD', total_amount: '5.250', tax_amount: '0.000', tip_amount: '0.250', payments: [] }));
    expect(kwd.result().actual.net_sales_amount).toBe('5.000');
    expect(kwd.result().actual.payment_total_amount).toBe('0.000');

    const jpy = new DayAggregator({ currency: 'JPY', mapping });
    jpy.add(
      row(1, {
        currency: 'JPY',
        total_amount: '-500',
        tax_amount: '-45',
        tip_amount: '0',
        payments: [{ payment_type: 'REFUND', amount: '500' }],
      }),
    );
    jpy.add(
      row(2, {
        currency: 'JPY',
        total_amount: '500',
        tax_amount: '45',
        tip_amount: '0',
        payments: [{ payment_type: 'SALE', amount: '500' }],
      }),
    );
    expect(jpy.result().actual).toMatchObject({ net_sales_amount: '0', tax_amount: '0', tip_amount: '0', payment_total_amount: '0' });
  });

  it('applies an ADJUSTMENT with its own sign and never counts DEPOSIT_APPLIED', () => {
    const aggregator = new DayAggregator({ currency: 'USD', mapping });
    aggregator.add(
      row(1, {
        payment_row_count: 3,
        payments: [
          { payment_type: 'DEPOSIT_APPLIED', amount: '5.00' },
          { payment_type: 'SALE', amount: '6.08' },
          { payment_type: 'ADJUSTMENT', amount: '-0.01' },
        ],
      }),
    );
    expect(aggregator.result().actual.payment_total_amount).toBe('6.07');
  });

  it('reports unmapped codes and unknown payment types with counts, bounded in number', () => {
    const aggregator = new DayAggregator({ currency: 'USD', mapping, maxDistinctCodes: 2 });
    for (const code of ['X1', 'X1', 'X2', 'X3', 'X4']) {
      aggregator.add(row(1, { source_transaction_type: code, payments: [{ payment_type: `P-${code}`, amount: '1.00' }] }));
    }
    const { actual, diagnostics } = aggregator.result();
    expect(actual.net_sales_amount).toBe('0.00');
    expect(actual.payment_total_amount).toBe('0.00');
    expect(actual.trade_record_count).toBe(5);
    expect([...diagnostics.unmapped_transaction_types]).toEqual([
      ['X1', 2],
      ['X2', 1],
    ]);
    expect(diagnostics.unmapped_overflow_transaction_count).toBe(2);
    expect([...diagnostics.unknown_payment_types]).toEqual([
      ['P-X1', 2],
      ['P-X2', 1],
    ]);
    expect(diagnostics.unknown_payment_overflow_count).toBe(2);
  });

  it('never lets a partner direction override a suggested payment type', () => {
    const aggregator = new DayAggregator({ currency: 'USD', mapping, paymentDirections: new Map([['SALE', -1]]) });
    aggregator.add(row(1));
    expect(aggregator.result().actual.payment_total_amount).toBe('11.07');
    expect(aggregator.result().diagnostics.registered_payment_types).toEqual(new Set());
  });

  it('names the partner payment types it counted with a registered direction, bounded in number', () => {
    const paymentDirections = new Map<string, PaymentDirection>([
      ['GIFT', -1],
      ['VOUCHER', 0],
      ['HOUSE', 1],
    ]);
    const aggregator = new DayAggregator({ currency: 'USD', mapping, paymentDirections, maxDistinctCodes: 2 });
    aggregator.add(
      row(1, {
        payment_row_count: 5,
        payments: [
          { payment_type: 'GIFT', amount: '2.00' },
          { payment_type: 'SALE', amount: '9.00' },
          { payment_type: 'VOUCHER', amount: '1.00' },
          { payment_type: 'HOUSE', amount: '3.00' },
          { payment_type: 'CASHBACK', amount: '4.00' },
        ],
      }),
    );
    const { actual, diagnostics } = aggregator.result();
    expect(actual.payment_total_amount).toBe('10.00');
    expect([...diagnostics.registered_payment_types]).toEqual(['GIFT', 'VOUCHER']);
    expect([...diagnostics.unknown_payment_types.keys()]).toEqual(['CASHBACK']);
  });

  it('caps the batch numbers it remembers', () => {
    const aggregator = new DayAggregator({ currency: 'USD', mapping, maxBatchSeqs: 3 });
    for (const seq of [5, 1, 5, 2, 9, 4]) aggregator.add(row(1, { batch_seq: seq }));
    const { diagnostics } = aggregator.result();
    expect(diagnostics.batch_seqs).toEqual([1, 2, 5]);
    expect(diagnostics.batch_seqs_truncated).toBe(true);
  });

  it('counts a transaction in another currency but leaves its amounts out', () => {
    const aggregator = new DayAggregator({ currency: 'USD', mapping });
    aggregator.add(row(1));
    aggregator.add(row(2, { currency: 'CAD' }));
    const { actual, diagnostics } = aggregator.result();
    expect(actual.trade_record_count).toBe(2);
    expect(actual.net_sales_amount).toBe('9.11');
    expect(actual.payment_total_amount).toBe('11.07');
    expect(diagnostics.other_currency_trade_record_count).toBe(1);
  });

  it('refuses a currency that is not ISO 4217', () => {
    expect(() => new DayAggregator({ currency: 'XYZ', mapping })).toThrow(RangeError);
  });

  it('uses the standard list it is given', () => {
    const aggregator = new DayAggregator({
      currency: 'USD',
      mapping,
      standardTypes: [{ code: 'SALE', name: { 'en-US': 'Sale' }, is_revenue: false, amount_sign: 1, description: 'x' }],
    });
    aggregator.add(row(1));
    expect(aggregator.result().actual.net_sales_amount).toBe('0.00');
  });
});
