import { describe, expect, it } from 'vitest';
import {
  compactPayments,
  expandPayments,
  MAX_COMPACT_PAYMENTS_LENGTH,
  summarizeTradeRecord,
} from '../../../src/domain/reconciliation/TradeRecordSummary.js';
import { usdDay } from './storeDays.js';

describe('summarizeTradeRecord', () => {
  it('keeps the figures reconciliation needs, counting every item row', () => {
    const combo = usdDay.finalRecords[0]!;
    expect(summarizeTradeRecord(combo, { batch_id: 'b-1', batch_seq: 1 })).toEqual({
      trade_record_id: 'U1',
      version: 1,
      last_modified_at: '2026-11-20T12:00:00-08:00',
      source_transaction_type: 'S',
      currency: 'USD',
      total_amount: '21.39',
      tax_amount: '1.71',
      tip_amount: '3.00',
      item_row_count: 6,
      payment_row_count: 1,
      payments: [{ payment_type: 'SALE', amount: '21.39' }],
      batch_seq: 1,
      batch_id: 'b-1',
    });
  });
});

describe('compactPayments', () => {
  it('round-trips payment rows in order, unusual characters included', () => {
    const payments = [
      { payment_type: 'SALE', amount: '25.06' },
      { payment_type: 'ADJUSTMENT', amount: '-0.01' },
      { payment_type: 'ポイント,"充当"', amount: '300' },
    ];
    expect(expandPayments(compactPayments(payments))).toEqual(payments);
    expect(expandPayments(compactPayments([]))).toEqual([]);
  });

  it('merges rows by payment type when the rows would not fit a table property', () => {
    const many = Array.from({ length: 2_000 }, (_, i) => ({ payment_type: i % 2 ? 'SALE' : 'REFUND', amount: '0.25' }));
    const text = compactPayments(many);
    expect(text.length).toBeLessThanOrEqual(MAX_COMPACT_PAYMENTS_LENGTH);
    expect(expandPayments(text)).toEqual([
      { payment_type: 'REFUND', amount: '250.00' },
      { payment_type: 'SALE', amount: '250.00' },
    ]);
  });

  it('refuses text that is not its own form', () => {
    expect(() => expandPayments('not json')).toThrow(TypeError);
    expect(() => expandPayments('{"SALE":"1.00"}')).toThrow(TypeError);
    expect(() => expandPayments('[["SALE",1]]')).toThrow(TypeError);
  });
});
