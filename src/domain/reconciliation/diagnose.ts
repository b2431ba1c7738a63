import Big from 'big.js';
import { compareInstants } from './compareInstants.js';
import type { ControlTotals } from './ControlTotals.js';
import { BUILT_IN_PAYMENT_DIRECTIONS } from './paymentDirection.js';
import { compareCodeUnits } from '../compareCodeUnits.js';

/** One /trade-records batch HQ received for the store-day (one per batch_id). */
export interface ReceivedBatch {
  readonly batch_seq: number;
  /** When HQ received it; batches without a time are not judged against the close. */
  readonly received_at?: string | null;
}

export interface DiagnosisInput {
  /** batch_count declared by the daily close. */
  readonly batch_count: number;
  /**
   * The batches received for the store-day, one entry per batch (per batch_id): two entries with
   * one batch_seq are two batches the partner numbered alike, and are reported so.
   */
  readonly batches: Iterable<ReceivedBatch>;
  /** When HQ received the daily close being reconciled. */
  readonly close_received_at?: string | null;
  /** Source codes with no usable mapping, with their transaction counts. */
  readonly unmapped_transaction_types: Iterable<readonly [string, number]>;
  /** payment_type codes with no known direction, with their payment row counts. */
  readonly unknown_payment_types: Iterable<readonly [string, number]>;
  /** Transactions in another currency than the store's. */
  readonly other_currency_trade_record_count?: number;
  /** Fields that differ, when already known: a generic hint is given if nothing else explains them. */
  readonly differences?: readonly string[];
  /**
   * The close's and the received tax and tip, with those of the non-revenue transactions: a close
   * whose figure is the received one plus the non-revenue one counted what the service leaves out.
   */
  readonly tax_and_tip?: {
    readonly expected: TaxAndTip;
    readonly actual: TaxAndTip;
    readonly non_revenue: TaxAndTip;
  };
}

type TaxAndTip = Pick<ControlTotals, 'tax_amount' | 'tip_amount'>;

/** Additive `diagnosis` field of a reconciliation result: why the figures may differ and what to resend. */
export interface Diagnosis {
  /** batch_seq numbers 1..batch_count not received, ascending (at most MAX_LISTED_BATCH_SEQS). */
  missing_batch_seqs: number[];
  /** How many of 1..batch_count were not received (the list above may be cut short). */
  missing_batch_count: number;
  /** batch_seq numbers above batch_count that were received, ascending (at most MAX_LISTED_BATCH_SEQS). */
  unexpected_batch_seqs: number[];
  /** Batches received after the daily close. */
  batches_after_close: number;
  /** Most frequent first (at most MAX_LISTED_CODES). */
  unmapped_transaction_types: { source_code: string; transaction_count: number }[];
  /** Most frequent first (at most MAX_LISTED_CODES). */
  unknown_payment_types: { payment_type: string; payment_count: number }[];
  /** Plain-English advice to the partner. */
  hints: string[];
}

const MAX_LISTED_BATCH_SEQS = 500;
const MAX_LISTED_CODES = 50;
const MAX_NAMED_IN_HINT = 10;

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** "a", "a and b", "a, b and c", "a, b, … and 7 more". */
function listing(parts: readonly string[], total = parts.length): string {
  const shown = parts.slice(0, MAX_NAMED_IN_HINT);
  const more = total - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

function byCountThenName(entries: Iterable<readonly [string, number]>): [string, number][] {
  return [...entries].map(([name, count]): [string, number] => [name, count]).sort((a, b) => b[1] - a[1] || compareCodeUnits(a[0], b[0]));
}

function isAfter(receivedAt: string, closeReceivedAt: string): boolean {
  try {
    return compareInstants(receivedAt, closeReceivedAt) > 0;
  } catch {
    return false;
  }
}

/** Explains a store-day's reconciliation beyond the contract's fields. Pure; input is not modified. */
export function diagnose(input: DiagnosisInput): Diagnosis {
  const batchCount = Number.isSafeInteger(input.batch_count) && input.batch_count > 0 ? input.batch_count : 0;
  const seen = new Set<number>();
  const repeated = new Map<number, number>();
  let batchesAfterClose = 0;
  for (const batch of input.batches) {
    if (Number.isSafeInteger(batch.batch_seq)) {
      if (seen.has(batch.batch_seq)) repeated.set(batch.batch_seq, (repeated.get(batch.batch_seq) ?? 1) + 1);
      seen.add(batch.batch_seq);
    }
    if (batch.received_at && input.close_received_at && isAfter(batch.received_at, input.close_received_at)) {
      batchesAfterClose += 1;
    }
  }

  let seenWithinCount = 0;
  const unexpected: number[] = [];
  for (const seq of seen) {
    if (seq >= 1 && seq <= batchCount) seenWithinCount += 1;
    else if (seq > batchCount) unexpected.push(seq);
  }
  unexpected.sort((a, b) => a - b);
  const missingCount = batchCount - seenWithinCount;
  const missing: number[] = [];
  for (let seq = 1; seq <= batchCount && missing.length < Math.min(missingCount, MAX_LISTED_BATCH_SEQS); seq += 1) {
    if (!seen.has(seq)) missing.push(seq);
  }

  const unmapped = byCountThenName(input.unmapped_transaction_types);
  const unknown = byCountThenName(input.unknown_payment_types);
  const hints: string[] = [];

  if (missingCount > 0) {
    const names = missing.map(String);
    hints.push(
      missingCount === 1
        ? `Batch ${names[0]} of ${batchCount} was not received: send it, then resend the daily close with a new batch_id.`
        : `Batches ${listing(names, missingCount)} of ${batchCount} were not received: send them, then resend the daily close with a new batch_id.`,
    );
  }
  if (repeated.size > 0) {
    const counted = [...repeated].sort((a, b) => a[0] - b[0]);
    const names = counted.map(([seq, batches]) => `${seq} (${batches} batches)`);
    const one = counted.length === 1;
    hints.push(
      `${one ? 'batch_seq' : 'batch_seq numbers'} ${listing(names)} ${one ? 'was' : 'were'} given to more than one batch_id: ` +
        "each batch of a store and business date needs a batch_seq of its own (1, 2, 3, …, corrections included). The daily close's " +
        'batch_count is checked against the numbers received, so a repeated number can make a received batch look missing.',
    );
  }
  if (unexpected.length > 0) {
    const names = unexpected.map(String);
    hints.push(
      unexpected.length === 1
        ? `Batch ${names[0]} was received but the daily close declares ${plural(batchCount, 'batch', 'batches')}: if it belongs to this business date, resend the daily close with the right batch_count and a new batch_id.`
        : `Batches ${listing(names)} were received but the daily close declares ${plural(batchCount, 'batch', 'batches')}: if they belong to this business date, resend the daily close with the right batch_count and a new batch_id.`,
    );
  }
  if (batchesAfterClose > 0) {
    hints.push(
      `${batchesAfterClose === 1 ? '1 batch was' : `${batchesAfterClose} batches were`} received after the daily close: ` +
        'send the daily close only after the last batch of the business date; if its totals leave these transactions out, resend it with a new batch_id.',
    );
  }
  if (unmapped.length > 0) {
    const names = unmapped.map(([code, n]) => `${JSON.stringify(code)} (${plural(n, 'transaction', 'transactions')})`);
    const one = unmapped.length === 1;
    hints.push(
      `${one ? 'Transaction type' : 'Transaction types'} ${listing(names)} ${one ? 'is' : 'are'} not in your mapping, ` +
        `so ${one ? 'it does' : 'they do'} not count as revenue: upload the complete mapping with ${one ? 'it' : 'them'} included ` +
        '(PUT /mappings/transaction-types); the business dates concerned are then reconciled again.',
    );
  }
  if (unknown.length > 0) {
    const names = unknown.map(([type, n]) => `${JSON.stringify(type)} (${plural(n, 'payment', 'payments')})`);
    const one = unknown.length === 1;
    hints.push(
      `${one ? 'Payment type' : 'Payment types'} ${listing(names)} ${one ? 'has' : 'have'} no known direction, ` +
        `so ${one ? 'it is' : 'they are'} left out of payment_total_amount: tell HQ the meaning and direction of each, ` +
        `or resend those transactions with version + 1 using a suggested payment_type (${[...BUILT_IN_PAYMENT_DIRECTIONS.keys()].join(', ')}).`,
    );
  }
  const otherCurrency = input.other_currency_trade_record_count ?? 0;
  if (otherCurrency > 0) {
    hints.push(
      otherCurrency === 1
        ? "1 transaction is in another currency than the store's, so its amounts are left out: resend it in the store currency with version + 1."
        : `${otherCurrency} transactions are in another currency than the store's, so their amounts are left out: resend them in the store currency with version + 1.`,
    );
  }
  const countedNonRevenue = nonRevenueCounted(input);
  if (countedNonRevenue.length > 0) {
    const one = countedNonRevenue.length === 1;
    const sent = countedNonRevenue.map(({ field, expected }) => `${field} ${expected}`);
    const included = countedNonRevenue.map(({ field, nonRevenue }) => `${nonRevenue} of ${field === 'tax_amount' ? 'tax' : 'tip'}`);
    const right = countedNonRevenue.map(({ field, received }) => `${field} ${received}`);
    hints.push(
      `The daily close's ${listing(sent)} ${one ? 'includes' : 'include'} ${listing(included)} on transactions whose standard type ` +
        'is not revenue (a VOID, a DEPOSIT, a GIFT_CARD_SALE): tax_amount and tip_amount count revenue transactions only. ' +
        `Resend the daily close with ${listing(right)}, under a new batch_id.`,
    );
  }
  if (hints.length === 0 && input.differences && input.differences.length > 0) {
    hints.push(
      `The daily close and the received transactions differ in ${listing([...input.differences])}: ` +
        'send any missing transactions or resend changed ones with version + 1 in a new batch, ' +
        'then resend the daily close with a new batch_id.',
    );
  }

  return {
    missing_batch_seqs: missing,
    missing_batch_count: missingCount,
    unexpected_batch_seqs: unexpected.slice(0, MAX_LISTED_BATCH_SEQS),
    batches_after_close: batchesAfterClose,
    unmapped_transaction_types: unmapped
      .slice(0, MAX_LISTED_CODES)
      .map(([source_code, transaction_count]) => ({ source_code, transaction_count })),
    unknown_payment_types: unknown.slice(0, MAX_LISTED_CODES).map(([payment_type, payment_count]) => ({ payment_type, payment_count })),
    hints,
  };
}

/**
 * The differing tax and tip fields that the non-revenue transactions explain exactly: the close's
 * figure equals the received one plus theirs.
 */
function nonRevenueCounted(input: DiagnosisInput): { field: keyof TaxAndTip; expected: string; received: string; nonRevenue: string }[] {
  const figures = input.tax_and_tip;
  if (!figures) return [];
  const fields = (['tax_amount', 'tip_amount'] as const).filter((field) => input.differences?.includes(field));
  return fields.flatMap((field) => {
    const nonRevenue = new Big(figures.non_revenue[field]);
    if (nonRevenue.eq(0) || !new Big(figures.expected[field]).eq(new Big(figures.actual[field]).plus(nonRevenue))) return [];
    return [{ field, expected: figures.expected[field], received: figures.actual[field], nonRevenue: figures.non_revenue[field] }];
  });
}
