import { describe, expect, it } from 'vitest';
import type { TradeRecordBatch } from '../../../src/domain/model/payloads.js';
import { compareTotals } from '../../../src/domain/reconciliation/compareTotals.js';
import type { ControlTotals } from '../../../src/domain/reconciliation/ControlTotals.js';
import { DayAggregator } from '../../../src/domain/reconciliation/DayAggregator.js';
import { compareVersions } from '../../../src/domain/reconciliation/compareVersions.js';
import type { PaymentDirection } from '../../../src/domain/reconciliation/paymentDirection.js';
import {
  compactPayments,
  expandPayments,
  summarizeTradeRecord,
  type TradeRecordSummary,
} from '../../../src/domain/reconciliation/TradeRecordSummary.js';
import {
  contractRules,
  fromMinor,
  independentTotals,
  itemsSubtotal,
  satisfiesAmountIdentity,
  toMinor,
  type IndependentRules,
} from '../../support/independentTotals.js';
import { jpyDay, usdDay } from './storeDays.js';

/** What the trade-record index holds after the batches: one row per transaction, latest version, payments stored compact. */
function indexAfter(batches: readonly TradeRecordBatch[]): TradeRecordSummary[] {
  const index = new Map<string, TradeRecordSummary>();
  for (const batch of batches) {
    for (const record of batch.trade_records) {
      const stored = index.get(record.trade_record_id);
      if (stored !== undefined && compareVersions(record, stored) <= 0) continue;
      const summary = summarizeTradeRecord(record, batch);
      index.set(record.trade_record_id, { ...summary, payments: expandPayments(compactPayments(summary.payments)) });
    }
  }
  return [...index.values()];
}

function reconcile(
  day: typeof usdDay | typeof jpyDay,
  options: { mapping?: Record<string, string>; directions?: ReadonlyMap<string, PaymentDirection> } = {},
) {
  const aggregator = new DayAggregator({
    currency: day.currency,
    mapping: new Map(Object.entries(options.mapping ?? day.mapping)),
    paymentDirections: options.directions,
  });
  for (const summary of indexAfter(day.batches)) aggregator.add(summary);
  return aggregator.result();
}

/** HQ's revenue table and built-in directions, restated by hand for the independent calculation. */
function rulesFor(day: typeof usdDay | typeof jpyDay, mapping: Record<string, string> = day.mapping): IndependentRules {
  return contractRules(day.digits, mapping);
}

function shifted(totals: ControlTotals, field: keyof ControlTotals, minorUnits: number, digits: number): ControlTotals {
  const value = totals[field];
  return {
    ...totals,
    [field]: typeof value === 'number' ? value + minorUnits : fromMinor(toMinor(value, digits) + minorUnits, digits),
  };
}

describe.each([
  ['US store, prices exclude tax', usdDay],
  ['Tokyo store, prices include tax', jpyDay],
] as const)('a whole store-day: %s', (_name, day) => {
  it('is built from records that satisfy the amount identity and add up their lines', () => {
    for (const record of day.batches.flatMap((b) => b.trade_records)) {
      expect(satisfiesAmountIdentity(record, day.digits), record.trade_record_id).toBe(true);
      expect(itemsSubtotal(record, day.digits), record.trade_record_id).toBe(toMinor(record.subtotal_amount, day.digits));
    }
  });

  it('keeps only the latest version of each transaction in the index', () => {
    const index = indexAfter(day.batches);
    const latest = new Map(day.finalRecords.map((r) => [r.trade_record_id, r]));
    expect(index).toHaveLength(latest.size);
    for (const row of index) {
      expect(row.total_amount, row.trade_record_id).toBe(latest.get(row.trade_record_id)!.total_amount);
    }
  });

  it('recomputes exactly the totals a POS computes with integer minor units', () => {
    const independent = independentTotals(day.finalRecords, rulesFor(day));
    expect(independent).toEqual(day.handChecked);
    expect(reconcile(day).actual).toEqual(independent);
  });

  it('matches the daily close', () => {
    const expected = independentTotals(day.finalRecords, rulesFor(day));
    expect(compareTotals(expected, reconcile(day).actual, day.currency)).toEqual({ status: 'MATCHED', differences: [] });
  });

  it.each(['net_sales_amount', 'tax_amount', 'tip_amount', 'payment_total_amount'] as const)(
    'tolerates one minor unit in %s and reports two',
    (field) => {
      const expected = independentTotals(day.finalRecords, rulesFor(day));
      const { actual } = reconcile(day);
      for (const delta of [1, -1]) {
        expect(compareTotals(shifted(expected, field, delta, day.digits), actual, day.currency).status).toBe('MATCHED');
      }
      for (const delta of [2, -2]) {
        expect(compareTotals(shifted(expected, field, delta, day.digits), actual, day.currency)).toEqual({
          status: 'MISMATCHED',
          differences: [field],
        });
      }
    },
  );

  it.each(['trade_record_count', 'item_row_count', 'payment_row_count'] as const)('reports a count off by one in %s', (field) => {
    const expected = independentTotals(day.finalRecords, rulesFor(day));
    expect(compareTotals(shifted(expected, field, 1, day.digits), reconcile(day).actual, day.currency)).toEqual({
      status: 'MISMATCHED',
      differences: [field],
    });
  });

  it('names every differing field in the contract order', () => {
    const expected = independentTotals(day.finalRecords, rulesFor(day));
    let wrong = shifted(expected, 'payment_total_amount', 5, day.digits);
    wrong = shifted(wrong, 'tax_amount', -3, day.digits);
    wrong = shifted(wrong, 'trade_record_count', -1, day.digits);
    expect(compareTotals(wrong, reconcile(day).actual, day.currency).differences).toEqual([
      'trade_record_count',
      'tax_amount',
      'payment_total_amount',
    ]);
  });

  it('reports nothing unusual for a clean day', () => {
    const { diagnostics } = reconcile(day);
    expect(diagnostics.unmapped_transaction_types.size).toBe(0);
    expect(diagnostics.unknown_payment_types.size).toBe(0);
    expect(diagnostics.batch_seqs).toEqual(day.batches.map((b) => b.batch_seq));
  });
});

describe('the US store-day in detail', () => {
  it('counts the deposit when taken, not when applied, and leaves it out of net sales', () => {
    const withoutDeposit = reconcile(usdDay, { mapping: { ...usdDay.mapping, DP: 'SALE' } });
    const normal = reconcile(usdDay);
    // Mapped as a sale, the 50.00 deposit would wrongly become revenue; payments are unchanged.
    expect(withoutDeposit.actual.net_sales_amount).toBe('349.63');
    expect(normal.actual.net_sales_amount).toBe('299.63');
    expect(withoutDeposit.actual.payment_total_amount).toBe(normal.actual.payment_total_amount);
  });

  it('treats an unmapped code as not revenue, still counts its rows and payments, and reports it', () => {
    const { RT: _removed, ...mapping } = usdDay.mapping;
    const result = reconcile(usdDay, { mapping });
    const independent = independentTotals(usdDay.finalRecords, rulesFor(usdDay, mapping));
    expect(result.actual).toEqual(independent);
    // The -12.00 return no longer reduces revenue; its refund payment still counts.
    expect(result.actual.net_sales_amount).toBe('311.63');
    expect(result.actual.tax_amount).toBe('30.10');
    expect(result.actual.trade_record_count).toBe(14);
    expect(result.actual.payment_total_amount).toBe('341.50');
    expect([...result.diagnostics.unmapped_transaction_types]).toEqual([['RT', 1]]);
  });

  it('reports a mapping to a code missing from the standard list as unmapped', () => {
    const result = reconcile(usdDay, { mapping: { ...usdDay.mapping, EX: 'SWAP' } });
    expect([...result.diagnostics.unmapped_transaction_types]).toEqual([['EX', 1]]);
    expect(result.actual.net_sales_amount).toBe('289.63');
  });
});

describe('payment types beyond the suggested ones', () => {
  const withStoreCredit = {
    ...usdDay,
    batches: [
      ...usdDay.batches,
      {
        batch_id: '6f1c1e0e-3f57-4d7c-9a43-0d9a1b1c0004',
        store_id: 'SEA-001',
        business_date: '2026-11-20',
        batch_seq: 4,
        trade_records: [
          {
            ...usdDay.finalRecords[5]!,
            trade_record_id: 'U15',
            payments: [{ ...usdDay.finalRecords[5]!.payments[0]!, payment_id: 'P-U15', payment_type: 'STORE_CREDIT_ISSUE' }],
          },
        ],
      },
    ],
  };

  it('leaves an unknown payment type out of the total and reports it', () => {
    const result = reconcile(withStoreCredit);
    expect(result.actual.payment_total_amount).toBe('341.50');
    expect(result.actual.payment_row_count).toBe(18);
    expect(result.actual.net_sales_amount).toBe('287.63');
    expect([...result.diagnostics.unknown_payment_types]).toEqual([['STORE_CREDIT_ISSUE', 1]]);
  });

  it('uses the direction HQ registered for the partner', () => {
    const result = reconcile(withStoreCredit, { directions: new Map([['STORE_CREDIT_ISSUE', -1]]) });
    expect(result.actual.payment_total_amount).toBe('328.27');
    expect(result.diagnostics.unknown_payment_types.size).toBe(0);
  });
});
