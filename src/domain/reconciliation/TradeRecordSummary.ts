import Big from 'big.js';
import type { DecimalString, TradeRecord } from '../model/payloads.js';

/** One payment of a transaction, reduced to what reconciliation needs. */
export interface PaymentSummary {
  readonly payment_type: string;
  /** Decimal string as sent: positive, except for ADJUSTMENT which may be negative. */
  readonly amount: DecimalString;
}

/**
 * What the trade-record index keeps per transaction (its latest version) so that a store-day can be
 * reconciled without reading the raw batches. Amounts are decimal strings as sent.
 */
export interface TradeRecordSummary {
  readonly trade_record_id: string;
  readonly version: number;
  readonly last_modified_at: string;
  readonly source_transaction_type: string;
  readonly currency: string;
  readonly total_amount: DecimalString;
  readonly tax_amount: DecimalString;
  readonly tip_amount: DecimalString;
  /** Every row of items: voided lines and combo child lines included. */
  readonly item_row_count: number;
  readonly payment_row_count: number;
  /** One entry per payment row, or one per payment_type after {@link expandPayments} of a merged form. */
  readonly payments: readonly PaymentSummary[];
  /** batch_seq of the batch that delivered this version. */
  readonly batch_seq: number;
  /** batch_id of the batch that delivered this version. */
  readonly batch_id: string;
}

/** The index row of one transaction as delivered by one batch. */
export function summarizeTradeRecord(
  record: TradeRecord,
  batch: { readonly batch_id: string; readonly batch_seq: number },
): TradeRecordSummary {
  return {
    trade_record_id: record.trade_record_id,
    version: record.version,
    last_modified_at: record.last_modified_at,
    source_transaction_type: record.source_transaction_type,
    currency: record.currency,
    total_amount: record.total_amount,
    tax_amount: record.tax_amount,
    tip_amount: record.tip_amount,
    item_row_count: record.items.length,
    payment_row_count: record.payments.length,
    payments: record.payments.map((p) => ({ payment_type: p.payment_type, amount: p.amount })),
    batch_seq: batch.batch_seq,
    batch_id: batch.batch_id,
  };
}

/**
 * Longest string a table property may hold: 64 KiB of UTF-16, i.e. 32,768 code units, with a margin.
 * @internal exported so that the test of the limit reads it instead of restating it.
 */
export const MAX_COMPACT_PAYMENTS_LENGTH = 32_000;

function encode(payments: readonly PaymentSummary[]): string {
  return JSON.stringify(payments.map((p) => [p.payment_type, p.amount]));
}

/**
 * Compact string form of the payments for one table property: a JSON array of
 * `[payment_type, amount]` pairs, one per payment row, in order.
 * When that would exceed {@link MAX_COMPACT_PAYMENTS_LENGTH}, the rows are merged into one pair per
 * payment_type with the amounts summed exactly; reconciliation only needs Σ amount per payment_type,
 * and the row count is kept separately in payment_row_count.
 * Throws a RangeError when even the merged form is too long.
 */
export function compactPayments(payments: readonly PaymentSummary[]): string {
  const rows = encode(payments);
  if (rows.length <= MAX_COMPACT_PAYMENTS_LENGTH) return rows;
  const sums = new Map<string, Big>();
  let places = 0;
  for (const p of payments) {
    sums.set(p.payment_type, (sums.get(p.payment_type) ?? new Big(0)).plus(p.amount));
    places = Math.max(places, p.amount.split('.')[1]?.length ?? 0);
  }
  const merged = encode([...sums].map(([payment_type, sum]) => ({ payment_type, amount: sum.toFixed(places) })));
  if (merged.length > MAX_COMPACT_PAYMENTS_LENGTH) {
    throw new RangeError(`payments do not fit in ${MAX_COMPACT_PAYMENTS_LENGTH} characters even merged by payment_type`);
  }
  return merged;
}

/** Inverse of {@link compactPayments}. Throws a TypeError when the text is not of that form. */
export function expandPayments(text: string): PaymentSummary[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new TypeError('compact payments are not valid JSON');
  }
  if (!Array.isArray(parsed)) throw new TypeError('compact payments are not an array');
  return parsed.map((pair: unknown, i) => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') {
      throw new TypeError(`compact payments entry ${i} is not a [payment_type, amount] pair of strings`);
    }
    return { payment_type: pair[0], amount: pair[1] };
  });
}
