import { describe, expect, it } from 'vitest';
import { checkTradeRecordBatch } from '../../../src/domain/validation/checkTradeRecordBatch.js';
import type { TradeRecord, TradeRecordBatch } from '../../../src/domain/model/payloads.js';
import { buildTradeRecordBatch } from '../../fixtures/tradeRecordFixtures.js';
import { stringMatching } from '../../support/matchers.js';

function usd(change: (record: TradeRecord, batch: TradeRecordBatch) => void = () => undefined): TradeRecordBatch {
  const batch = buildTradeRecordBatch({ currency: 'USD', recordCount: 3 });
  change(batch.trade_records[0]!, batch);
  return batch;
}

function jpy(change: (record: TradeRecord, batch: TradeRecordBatch) => void = () => undefined): TradeRecordBatch {
  const batch = buildTradeRecordBatch({ currency: 'JPY', recordCount: 2 });
  change(batch.trade_records[0]!, batch);
  return batch;
}

/** Problems of a batch; the store currency defaults to the first record's, `null` means none known. */
const problemsOf = (batch: TradeRecordBatch, storeCurrency: string | null = batch.trade_records[0]?.currency ?? null) =>
  checkTradeRecordBatch(batch, storeCurrency ?? undefined);

describe('checkTradeRecordBatch', () => {
  it('accepts the USD tax-excluded and JPY tax-included fixtures without problems', () => {
    expect(checkTradeRecordBatch(usd(), 'USD')).toEqual([]);
    expect(checkTradeRecordBatch(jpy(), 'JPY')).toEqual([]);
    expect(checkTradeRecordBatch(buildTradeRecordBatch({ recordCount: 50, extraItemsPerRecord: 7 }), 'USD')).toEqual([]);
  });

  it('requires every record to carry the batch store_id and business_date', () => {
    expect(problemsOf(usd((r) => (r.store_id = 'NYC-0002')))).toEqual([
      { path: '/trade_records/0/store_id', message: "must equal the batch's store_id" },
    ]);
    expect(problemsOf(usd((r) => (r.business_date = '2026-02-28')))).toEqual([
      { path: '/trade_records/0/business_date', message: "must equal the batch's business_date" },
    ]);
  });

  it('rejects a trade_record_id repeated in the batch and points at the repeat', () => {
    const batch = usd((r, b) => (r.trade_record_id = b.trade_records[2]!.trade_record_id));
    // Payment ids derive from the record id in the fixture, so rename them to isolate the rule.
    batch.trade_records[0]!.payments.forEach((p, i) => (p.payment_id = `UNIQUE-${i}`));
    expect(problemsOf(batch)).toEqual([
      { path: '/trade_records/2/trade_record_id', message: 'duplicates the trade_record_id of record 0 in this batch' },
    ]);
  });

  describe('currency', () => {
    it('rejects an unknown ISO 4217 code', () => {
      expect(
        problemsOf(
          usd((r) => (r.currency = 'XYZ')),
          null,
        ),
      ).toEqual([{ path: '/trade_records/0/currency', message: 'must be an active ISO 4217 currency code' }]);
    });

    it("rejects a currency differing from the store's", () => {
      expect(problemsOf(usd(), 'EUR').filter((p) => p.path.endsWith('/currency'))).toHaveLength(3);
      expect(problemsOf(usd(), 'EUR')[0]).toEqual({
        path: '/trade_records/0/currency',
        message: "must equal the currency of the store's master data (EUR)",
      });
    });

    it("judges no amount by a currency that is not the store's", () => {
      const problems = problemsOf(
        usd((r) => (r.currency = 'JPY')),
        'USD',
      );
      expect(problems).toEqual([
        { path: '/trade_records/0/currency', message: "must equal the currency of the store's master data (USD)" },
      ]);
    });

    it('checks only the code when the store master was never uploaded', () => {
      expect(problemsOf(usd(), null)).toEqual([]);
      expect(problemsOf(jpy(), null)).toEqual([]);
    });
  });

  describe('decimal places of amounts', () => {
    it.each([
      ['subtotal_amount', (r: TradeRecord) => (r.subtotal_amount = '13.9'), '/trade_records/0/subtotal_amount'],
      ['total_amount', (r: TradeRecord) => (r.total_amount = '16'), '/trade_records/0/total_amount'],
      ['rounding_amount', (r: TradeRecord) => (r.rounding_amount = '0.000'), '/trade_records/0/rounding_amount'],
      ['unit_price', (r: TradeRecord) => (r.items[4]!.unit_price = '1.990'), '/trade_records/0/items/4/unit_price'],
      ['line_amount', (r: TradeRecord) => (r.items[0]!.line_amount = '10.5'), '/trade_records/0/items/0/line_amount'],
      ['item discount', (r: TradeRecord) => (r.items[4]!.discount_amount = '.50'.slice(1)), '/trade_records/0/items/4/discount_amount'],
      [
        'price_delta',
        (r: TradeRecord) => (r.items[0]!.modifiers[0]!.price_delta = '0.5'),
        '/trade_records/0/items/0/modifiers/0/price_delta',
      ],
      ['payment amount', (r: TradeRecord) => (r.payments[0]!.amount = '5'), '/trade_records/0/payments/0/amount'],
      ['tip_amount', (r: TradeRecord) => (r.payments[1]!.tip_amount = '2.0'), '/trade_records/0/payments/1/tip_amount'],
      ['taxable_amount', (r: TradeRecord) => (r.tax_lines![0]!.taxable_amount = '12.970'), '/trade_records/0/tax_lines/0/taxable_amount'],
      ['tax line tax_amount', (r: TradeRecord) => (r.tax_lines![0]!.tax_amount = '1.1'), '/trade_records/0/tax_lines/0/tax_amount'],
    ])('USD needs exactly 2 places: %s', (_, change, path) => {
      const problems = problemsOf(usd(change));
      expect(problems).toContainEqual({ path, message: 'must have exactly 2 decimal places in this currency' });
      expect(problems.filter((p) => p.message.includes('decimal places'))).toHaveLength(1);
    });

    it('JPY needs no decimal places: 100 passes, 100.0 fails', () => {
      expect(problemsOf(jpy((r) => (r.items[4]!.unit_price = '150')))).toEqual([]);
      expect(problemsOf(jpy((r) => (r.items[4]!.unit_price = '150.0')))).toEqual([
        { path: '/trade_records/0/items/4/unit_price', message: 'must have no decimal places in this currency' },
      ]);
    });

    it('KWD needs 3 places', () => {
      const batch = buildTradeRecordBatch({ recordCount: 1 });
      const record = batch.trade_records[0]!;
      record.currency = 'KWD';
      expect(problemsOf(batch, 'KWD').length).toBeGreaterThan(10);
    });

    it('leaves quantity and tax_rate free', () => {
      expect(
        problemsOf(
          usd((r) => {
            r.items[4]!.quantity = '1.375';
            r.items[0]!.modifiers[0]!.quantity = '0.5';
            r.tax_lines![0]!.tax_rate = '0.08875';
          }),
        ),
      ).toEqual([]);
    });
  });

  describe('item lines', () => {
    it('rejects a line_no repeated within a record', () => {
      expect(problemsOf(usd((r) => (r.items[4]!.line_no = 3)))).toEqual([
        { path: '/trade_records/0/items/4/line_no', message: 'duplicates the line_no of item 2 of this record' },
      ]);
    });

    it('allows the same line_no in different records', () => {
      expect(problemsOf(usd())).toEqual([]);
    });

    it('requires parent_line_no to name another line of the record', () => {
      expect(problemsOf(usd((r) => (r.items[1]!.parent_line_no = 9)))).toEqual([
        { path: '/trade_records/0/items/1/parent_line_no', message: 'must equal the line_no of a line of this record' },
      ]);
      expect(problemsOf(usd((r) => (r.items[1]!.parent_line_no = 2)))).toEqual([
        { path: '/trade_records/0/items/1/parent_line_no', message: 'must name another line, not the line itself' },
      ]);
      expect(problemsOf(usd((r) => (r.items[4]!.parent_line_no = 1)))).toEqual([]);
      expect(problemsOf(usd((r) => delete r.items[4]!.parent_line_no))).toEqual([]);
    });
  });

  describe('payments', () => {
    it('rejects a payment_id repeated anywhere in the batch', () => {
      const batch = usd((r, b) => (r.payments[1]!.payment_id = b.trade_records[1]!.payments[0]!.payment_id));
      expect(problemsOf(batch)).toEqual([
        {
          path: '/trade_records/1/payments/0/payment_id',
          message: 'duplicates the payment_id at /trade_records/0/payments/1 in this batch',
        },
      ]);
    });

    it('rejects a negative amount except for ADJUSTMENT', () => {
      expect(problemsOf(usd((r) => (r.payments[0]!.amount = '-5.00')))).toContainEqual({
        path: '/trade_records/0/payments/0/amount',
        message: stringMatching(/must not be negative/),
      });
      const adjusted = usd((r) => {
        r.payments[0]!.amount = '-5.00';
        r.payments[0]!.payment_type = 'ADJUSTMENT';
      });
      expect(problemsOf(adjusted)).toEqual([]);
    });

    it('accepts a zero amount (a free order still records its instrument)', () => {
      expect(problemsOf(usd((r) => (r.payments[0]!.amount = '0.00')))).toEqual([]);
    });

    it('accepts a REFUND payment with a positive amount', () => {
      expect(problemsOf(usd((r) => (r.payments[0]!.payment_type = 'REFUND')))).toEqual([]);
    });

    it('requires tip_amount between zero and the amount', () => {
      expect(problemsOf(usd((r) => (r.payments[1]!.tip_amount = r.payments[1]!.amount)))).toEqual([]);
      expect(problemsOf(usd((r) => (r.payments[1]!.tip_amount = '999.00')))).toEqual([
        { path: '/trade_records/0/payments/1/tip_amount', message: stringMatching(/between zero and the payment amount/) },
      ]);
      expect(problemsOf(usd((r) => (r.payments[1]!.tip_amount = '-1.00')))[0]?.path).toBe('/trade_records/0/payments/1/tip_amount');
      const negativeAdjustment = usd((r) => {
        r.payments[1]!.payment_type = 'ADJUSTMENT';
        r.payments[1]!.amount = '-3.00';
        r.payments[1]!.tip_amount = '-1.00';
      });
      expect(problemsOf(negativeAdjustment)).toEqual([]);
    });
  });

  it('rejects a member_id that is a phone number and a card number in any field', () => {
    const problems = problemsOf(
      usd((r) => {
        r.member_id = '+81 90-1234-5678';
        r.items[4]!.product_name = 'Pie 4111 1111 1111 1111';
      }),
    );
    expect(problems).toEqual([
      { path: '/trade_records/0/member_id', message: stringMatching(/not a phone number/) },
      { path: '/trade_records/0/items/4/product_name', message: stringMatching(/payment card number/) },
    ]);
    expect(JSON.stringify(problems)).not.toMatch(/4111|1234/);
  });
});
