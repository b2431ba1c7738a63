import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../src/domain/reconciliation/diagnose.js';

const clean = { unmapped_transaction_types: [], unknown_payment_types: [] };
const seqs = (...numbers: number[]) => numbers.map((batch_seq) => ({ batch_seq }));

describe('diagnose', () => {
  it('finds nothing to say about a complete day', () => {
    expect(diagnose({ batch_count: 3, batches: seqs(1, 2, 3), ...clean })).toEqual({
      missing_batch_seqs: [],
      missing_batch_count: 0,
      unexpected_batch_seqs: [],
      batches_after_close: 0,
      unmapped_transaction_types: [],
      unknown_payment_types: [],
      hints: [],
    });
  });

  it('names the missing batches and says what to resend', () => {
    const result = diagnose({ batch_count: 12, batches: seqs(1, 2, 4, 5, 6, 8, 9, 10, 11, 12), ...clean });
    expect(result.missing_batch_seqs).toEqual([3, 7]);
    expect(result.hints).toEqual(['Batches 3 and 7 of 12 were not received: send them, then resend the daily close with a new batch_id.']);
    expect(diagnose({ batch_count: 2, batches: seqs(2), ...clean }).hints).toEqual([
      'Batch 1 of 2 was not received: send it, then resend the daily close with a new batch_id.',
    ]);
  });

  it('names a batch_seq given to several batches, which makes a received batch look missing', () => {
    // Two batches numbered 1 (different batch_ids) for a day of two: the second was sent, misnumbered.
    const result = diagnose({ batch_count: 2, batches: seqs(1, 1), ...clean });
    expect(result.missing_batch_seqs).toEqual([2]);
    expect(result.hints).toEqual([
      'Batch 2 of 2 was not received: send it, then resend the daily close with a new batch_id.',
      "batch_seq 1 (2 batches) was given to more than one batch_id: each batch of a store and business date needs a batch_seq of its own (1, 2, 3, …, corrections included). The daily close's batch_count is checked against the numbers received, so a repeated number can make a received batch look missing.",
    ]);
    expect(diagnose({ batch_count: 5, batches: seqs(3, 1, 2, 3, 1, 3, 4, 5), ...clean }).hints).toEqual([
      "batch_seq numbers 1 (2 batches) and 3 (3 batches) were given to more than one batch_id: each batch of a store and business date needs a batch_seq of its own (1, 2, 3, …, corrections included). The daily close's batch_count is checked against the numbers received, so a repeated number can make a received batch look missing.",
    ]);
  });

  it('keeps a long list of missing batches short', () => {
    const result = diagnose({ batch_count: 100_000, batches: seqs(1), ...clean });
    expect(result.missing_batch_count).toBe(99_999);
    expect(result.missing_batch_seqs).toHaveLength(500);
    expect(result.hints[0]).toBe(
      'Batches 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 99989 more of 100000 were not received: send them, then resend the daily close with a new batch_id.',
    );
  });

  it('reports batches beyond the declared count and batches after the close', () => {
    const result = diagnose({
      batch_count: 2,
      close_received_at: '2026-11-21T02:00:00Z',
      batches: [
        { batch_seq: 1, received_at: '2026-11-20T17:00:00-08:00' },
        { batch_seq: 2, received_at: '2026-11-20T18:30:00-08:00' },
        { batch_seq: 3, received_at: '2026-11-20T18:31:00-08:00' },
      ],
      ...clean,
    });
    expect(result.unexpected_batch_seqs).toEqual([3]);
    expect(result.batches_after_close).toBe(2);
    expect(result.hints).toEqual([
      'Batch 3 was received but the daily close declares 2 batches: if it belongs to this business date, resend the daily close with the right batch_count and a new batch_id.',
      '2 batches were received after the daily close: send the daily close only after the last batch of the business date; if its totals leave these transactions out, resend it with a new batch_id.',
    ]);
  });

  it('lists unmapped codes and unknown payment types, most frequent first', () => {
    const result = diagnose({
      batch_count: 1,
      batches: seqs(1),
      unmapped_transaction_types: new Map([
        ['STAFF', 2],
        ['COMP', 7],
      ]),
      unknown_payment_types: new Map([['TICKET', 1]]),
    });
    expect(result.unmapped_transaction_types).toEqual([
      { source_code: 'COMP', transaction_count: 7 },
      { source_code: 'STAFF', transaction_count: 2 },
    ]);
    expect(result.unknown_payment_types).toEqual([{ payment_type: 'TICKET', payment_count: 1 }]);
    expect(result.hints).toEqual([
      'Transaction types "COMP" (7 transactions) and "STAFF" (2 transactions) are not in your mapping, so they do not count as revenue: upload the complete mapping with them included (PUT /mappings/transaction-types); the business dates concerned are then reconciled again.',
      'Payment type "TICKET" (1 payment) has no known direction, so it is left out of payment_total_amount: tell HQ the meaning and direction of each, or resend those transactions with version + 1 using a suggested payment_type (SALE, REFUND, DEPOSIT, DEPOSIT_APPLIED, ADJUSTMENT).',
    ]);
  });

  it('gives general advice when the figures differ for no visible reason', () => {
    const result = diagnose({ batch_count: 1, batches: seqs(1), ...clean, differences: ['net_sales_amount', 'tax_amount'] });
    expect(result.hints).toEqual([
      'The daily close and the received transactions differ in net_sales_amount and tax_amount: send any missing transactions or resend changed ones with version + 1 in a new batch, then resend the daily close with a new batch_id.',
    ]);
  });

  it("says when the close's tax or tip counted the non-revenue transactions, and what to send instead", () => {
    const taxAndTip = (tax_amount: string, tip_amount: string) => ({ tax_amount, tip_amount });
    const day = (expected: { tax_amount: string; tip_amount: string }, differences: string[]) =>
      diagnose({
        batch_count: 1,
        batches: seqs(1),
        ...clean,
        differences,
        tax_and_tip: { expected, actual: taxAndTip('0.80', '2.00'), non_revenue: taxAndTip('0.40', '0.50') },
      }).hints;
    expect(day(taxAndTip('1.20', '2.00'), ['tax_amount'])).toEqual([
      "The daily close's tax_amount 1.20 includes 0.40 of tax on transactions whose standard type is not revenue (a VOID, a DEPOSIT, a GIFT_CARD_SALE): tax_amount and tip_amount count revenue transactions only. Resend the daily close with tax_amount 0.80, under a new batch_id.",
    ]);
    expect(day(taxAndTip('1.20', '2.50'), ['tax_amount', 'tip_amount'])).toEqual([
      "The daily close's tax_amount 1.20 and tip_amount 2.50 include 0.40 of tax and 0.50 of tip on transactions whose standard type is not revenue (a VOID, a DEPOSIT, a GIFT_CARD_SALE): tax_amount and tip_amount count revenue transactions only. Resend the daily close with tax_amount 0.80 and tip_amount 2.00, under a new batch_id.",
    ]);
    // A difference the non-revenue transactions do not explain exactly gets the general advice.
    expect(day(taxAndTip('1.21', '2.00'), ['tax_amount'])).toEqual([
      expect.stringMatching(/^The daily close and the received transactions differ in tax_amount/),
    ]);
  });

  it('mentions transactions in another currency', () => {
    const result = diagnose({ batch_count: 1, batches: seqs(1), ...clean, other_currency_trade_record_count: 1 });
    expect(result.hints).toEqual([
      "1 transaction is in another currency than the store's, so its amounts are left out: resend it in the store currency with version + 1.",
    ]);
  });
});
