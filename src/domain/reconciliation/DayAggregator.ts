import Big from 'big.js';
import { standardTransactionTypes, type StandardTransactionType } from '../reference/standardTransactionTypes.js';
import type { ControlTotals } from './ControlTotals.js';
import { requireMinorUnitDigits } from '../currency/requireMinorUnitDigits.js';
import { formatAmount } from './formatAmount.js';
import { BUILT_IN_PAYMENT_DIRECTIONS, paymentDirection, type PaymentDirection } from './paymentDirection.js';
import type { TradeRecordSummary } from './TradeRecordSummary.js';

export interface DayAggregatorOptions {
  /** The store's currency; every amount of the result has exactly its minor-unit digits. */
  readonly currency: string;
  /** The partner's mapping: source_transaction_type → standard code. */
  readonly mapping: ReadonlyMap<string, string>;
  /** The standard list that says which standard codes are revenue; the bundled list by default. */
  readonly standardTypes?: readonly StandardTransactionType[];
  /** Directions HQ registered for the partner's own payment_type codes. */
  readonly paymentDirections?: ReadonlyMap<string, PaymentDirection> | undefined;
  /** Most distinct batch_seq numbers remembered; later ones only set batch_seqs_truncated. */
  readonly maxBatchSeqs?: number;
  /** Most distinct unmapped codes, unknown payment types and registered payment types, kept by name. */
  readonly maxDistinctCodes?: number;
}

/** What the day's figures do not show by themselves; input for the diagnosis of a result. */
export interface DayDiagnostics {
  /** Transactions whose mapped standard type is revenue (the ones in the three sales amounts). */
  readonly revenue_trade_record_count: number;
  /**
   * Source codes with no mapping, or mapped to a code that is not in the standard list, with the
   * number of transactions: counted, but not revenue.
   */
  readonly unmapped_transaction_types: ReadonlyMap<string, number>;
  /** Transactions with an unmapped code beyond maxDistinctCodes distinct codes. */
  readonly unmapped_overflow_transaction_count: number;
  /** payment_type codes with no known direction, with the number of payment rows: left out of the total. */
  readonly unknown_payment_types: ReadonlyMap<string, number>;
  /** Payment rows of unknown types beyond maxDistinctCodes distinct types. */
  readonly unknown_payment_overflow_count: number;
  /**
   * The partner's own payment_type codes counted with the direction HQ registered for them (the
   * built-in codes' directions never change), in the order first met; at most maxDistinctCodes.
   */
  readonly registered_payment_types: ReadonlySet<string>;
  /** Distinct batch_seq numbers that delivered the transactions, ascending. */
  readonly batch_seqs: readonly number[];
  readonly batch_seqs_truncated: boolean;
  /** Transactions in another currency than the store's: counted, their amounts left out. */
  readonly other_currency_trade_record_count: number;
  /**
   * Tax and tip of the transactions whose mapped standard type is not revenue (a VOID's, say), in
   * the store's currency: left out of tax_amount and tip_amount, so a close that counts them differs.
   */
  readonly non_revenue: Pick<ControlTotals, 'tax_amount' | 'tip_amount'>;
}

export interface DayResult {
  readonly actual: ControlTotals;
  readonly diagnostics: DayDiagnostics;
}

/**
 * Recomputes a store-day's control totals from the latest version of each transaction, fed one
 * index row at a time. Memory stays flat in the number of transactions: running sums and counters,
 * plus maps bounded by distinct codes and batch numbers. Feed each transaction once.
 */
export class DayAggregator {
  private readonly currency: string;
  private readonly digits: number;
  private readonly mapping: ReadonlyMap<string, string>;
  private readonly revenueByCode: ReadonlyMap<string, boolean>;
  private readonly paymentDirections: ReadonlyMap<string, PaymentDirection> | undefined;
  private readonly maxBatchSeqs: number;
  private readonly maxDistinctCodes: number;

  private tradeRecordCount = 0;
  private itemRowCount = 0;
  private paymentRowCount = 0;
  private revenueTradeRecordCount = 0;
  private otherCurrencyCount = 0;
  /** Sum of total_amount of revenue transactions; net sales is this less their tax and tip, taken once in {@link result}. */
  private revenueTotal = new Big(0);
  private tax = new Big(0);
  private tip = new Big(0);
  private nonRevenueTax = new Big(0);
  private nonRevenueTip = new Big(0);
  private paymentTotal = new Big(0);
  private readonly unmapped = new Map<string, number>();
  private unmappedOverflow = 0;
  private readonly unknownPayments = new Map<string, number>();
  private unknownPaymentOverflow = 0;
  private readonly registeredPayments = new Set<string>();
  private readonly batchSeqs = new Set<number>();
  private batchSeqsTruncated = false;

  constructor(options: DayAggregatorOptions) {
    this.currency = options.currency;
    this.digits = requireMinorUnitDigits(options.currency);
    this.mapping = options.mapping;
    this.revenueByCode = new Map((options.standardTypes ?? standardTransactionTypes.data).map((t) => [t.code, t.is_revenue]));
    this.paymentDirections = options.paymentDirections;
    this.maxBatchSeqs = options.maxBatchSeqs ?? 10_000;
    this.maxDistinctCodes = options.maxDistinctCodes ?? 1_000;
  }

  /** Adds the latest version of one transaction. */
  add(summary: TradeRecordSummary): void {
    this.tradeRecordCount += 1;
    this.itemRowCount += summary.item_row_count;
    this.paymentRowCount += summary.payment_row_count;
    this.noteBatchSeq(summary.batch_seq);

    const standardCode = this.mapping.get(summary.source_transaction_type);
    const isRevenue = standardCode === undefined ? undefined : this.revenueByCode.get(standardCode);
    if (isRevenue === undefined) this.noteUnmapped(summary.source_transaction_type);

    if (summary.currency !== this.currency) {
      this.otherCurrencyCount += 1;
      return;
    }
    if (isRevenue === true) {
      this.revenueTradeRecordCount += 1;
      // Exact decimal sums, so Σ(total − tax − tip) = Σtotal − Σtax − Σtip: two subtractions per day
      // instead of two per transaction (a large day's reconciliation is mostly this arithmetic's garbage).
      this.revenueTotal = this.revenueTotal.plus(summary.total_amount);
      this.tax = this.tax.plus(summary.tax_amount);
      this.tip = this.tip.plus(summary.tip_amount);
    } else if (isRevenue === false) {
      this.nonRevenueTax = this.nonRevenueTax.plus(summary.tax_amount);
      this.nonRevenueTip = this.nonRevenueTip.plus(summary.tip_amount);
    }
    for (const payment of summary.payments) {
      const direction = paymentDirection(payment.payment_type, this.paymentDirections);
      if (direction === undefined) {
        this.noteUnknownPayment(payment.payment_type);
        continue;
      }
      if (!BUILT_IN_PAYMENT_DIRECTIONS.has(payment.payment_type)) this.noteRegisteredPayment(payment.payment_type);
      if (direction !== 0) {
        this.paymentTotal = direction === 1 ? this.paymentTotal.plus(payment.amount) : this.paymentTotal.minus(payment.amount);
      }
    }
  }

  /** The day's figures so far, amounts with exactly the currency's minor-unit digits. */
  result(): DayResult {
    const amount = (value: Big): string => formatAmount(value, this.digits);
    return {
      actual: {
        trade_record_count: this.tradeRecordCount,
        item_row_count: this.itemRowCount,
        payment_row_count: this.paymentRowCount,
        net_sales_amount: amount(this.revenueTotal.minus(this.tax).minus(this.tip)),
        tax_amount: amount(this.tax),
        tip_amount: amount(this.tip),
        payment_total_amount: amount(this.paymentTotal),
      },
      diagnostics: {
        revenue_trade_record_count: this.revenueTradeRecordCount,
        unmapped_transaction_types: new Map(this.unmapped),
        unmapped_overflow_transaction_count: this.unmappedOverflow,
        unknown_payment_types: new Map(this.unknownPayments),
        unknown_payment_overflow_count: this.unknownPaymentOverflow,
        registered_payment_types: new Set(this.registeredPayments),
        batch_seqs: [...this.batchSeqs].sort((a, b) => a - b),
        batch_seqs_truncated: this.batchSeqsTruncated,
        other_currency_trade_record_count: this.otherCurrencyCount,
        non_revenue: { tax_amount: amount(this.nonRevenueTax), tip_amount: amount(this.nonRevenueTip) },
      },
    };
  }

  private noteBatchSeq(seq: number): void {
    if (!Number.isSafeInteger(seq) || this.batchSeqs.has(seq)) return;
    if (this.batchSeqs.size < this.maxBatchSeqs) this.batchSeqs.add(seq);
    else this.batchSeqsTruncated = true;
  }

  private noteUnmapped(code: string): void {
    const count = this.unmapped.get(code);
    if (count !== undefined) this.unmapped.set(code, count + 1);
    else if (this.unmapped.size < this.maxDistinctCodes) this.unmapped.set(code, 1);
    else this.unmappedOverflow += 1;
  }

  private noteRegisteredPayment(paymentType: string): void {
    if (this.registeredPayments.size < this.maxDistinctCodes) this.registeredPayments.add(paymentType);
  }

  private noteUnknownPayment(paymentType: string): void {
    const count = this.unknownPayments.get(paymentType);
    if (count !== undefined) this.unknownPayments.set(paymentType, count + 1);
    else if (this.unknownPayments.size < this.maxDistinctCodes) this.unknownPayments.set(paymentType, 1);
    else this.unknownPaymentOverflow += 1;
  }
}
