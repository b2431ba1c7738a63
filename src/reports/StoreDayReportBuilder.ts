import type { Payment, TradeItem, TradeRecord } from '../domain/model/payloads.js';
import { paymentDirection, type PaymentDirection } from '../domain/reconciliation/paymentDirection.js';
import { standardTransactionTypes, type StandardTransactionType } from '../domain/reference/standardTransactionTypes.js';
import { epochDay } from './epochDay.js';
import type { ParquetWriterModule } from './loadParquetWriter.js';
import { ParquetFileBuilder, type ReportRow } from './ParquetFileBuilder.js';
import { AMOUNT_PRECISION, AMOUNT_SCALE, QUANTITY_PRECISION, QUANTITY_SCALE, reportColumns } from './reportColumns.js';
import { ReportDataError } from './ReportDataError.js';
import type { ReportFragmentContent } from './ReportFragment.js';
import { SalesAccumulator } from './StoreDaySales.js';
import { storeDayDatasets, type StoreDayDataset } from './reportDatasets.js';
import { timestampMicros, type TimestampMicros } from './timestampMicros.js';
import { toScaledInteger } from './toScaledInteger.js';

export interface StoreDayReportContext {
  readonly partnerId: string;
  readonly storeId: string;
  readonly businessDate: string;
  /** The partner's mapping: source_transaction_type → standard code. */
  readonly mapping: ReadonlyMap<string, string>;
  /** Directions HQ registered for the partner's own payment_type codes. */
  readonly paymentDirections?: ReadonlyMap<string, PaymentDirection> | undefined;
  /** The standard list that says which codes exist and which are revenue; the bundled list by default. */
  readonly standardTypes?: readonly StandardTransactionType[];
  /** Rows per row group (a smaller figure bounds memory more tightly on large days). */
  readonly rowGroupRows?: number;
}

/** Where a transaction's version came from; also how an error names it (never by its values). */
export interface TransactionOrigin {
  readonly batch_id: string;
  readonly batch_seq: number;
  /** Position of the record in that batch's trade_records. */
  readonly index: number;
}

/** Rows of a store-day per dataset. */
export type StoreDayCounts = Readonly<Record<StoreDayDataset, number>>;

export interface StoreDayFiles {
  /** Each dataset's file, or undefined when the store-day has no row in it (its old file must go). */
  readonly files: Readonly<Record<StoreDayDataset, Uint8Array | undefined>>;
  readonly counts: StoreDayCounts;
}

interface PaymentAmounts {
  readonly amount: bigint;
  readonly direction: PaymentDirection | undefined;
  /** amount × direction; null when the direction is unknown. */
  readonly signed: bigint | null;
}

const maxCachedAmounts = 50_000;

const NO_DIRECTIONS: ReadonlyMap<string, PaymentDirection> = new Map();

/**
 * Turns the latest version of each transaction of one store-day into the rows of the four
 * per-store-day datasets: a transaction whose code maps to a known standard type goes to
 * sales_transactions with its lines and payments; any other is held back in unmapped_transactions.
 * Amounts become exact scaled integers (bigint arithmetic only). Feed each transaction once.
 */
export class StoreDayReportBuilder {
  private readonly files: Record<StoreDayDataset, ParquetFileBuilder>;
  private readonly typesByCode: ReadonlyMap<string, StandardTransactionType>;
  private readonly directions: ReadonlyMap<string, PaymentDirection>;
  private readonly partition: { readonly partner_id: string; readonly business_date: number; readonly store_id: string };
  /** Amount texts already converted (bounded). */
  private readonly amounts = new Map<string, bigint>();
  /** The transaction being converted, for error messages. */
  private where = '';
  /** What the rows depend on besides the transactions, and what they add up to (see ReportFragment). */
  private readonly included: [string, number, string][] = [];
  private readonly codesUsed = new Map<string, string | null>();
  private readonly paymentTypesUsed = new Map<string, PaymentDirection | null>();
  private readonly sales = new SalesAccumulator();

  constructor(
    module: ParquetWriterModule,
    private readonly context: StoreDayReportContext,
  ) {
    const day = epochDay(context.businessDate);
    if (day === undefined) throw new ReportDataError('business_date is not a calendar date');
    this.partition = { partner_id: context.partnerId, business_date: day, store_id: context.storeId };
    this.typesByCode = new Map((context.standardTypes ?? standardTransactionTypes.data).map((t) => [t.code, t]));
    this.directions = context.paymentDirections ?? NO_DIRECTIONS;
    const file = (dataset: StoreDayDataset) =>
      new ParquetFileBuilder(module, {
        dataset,
        columns: reportColumns[dataset],
        ...(context.rowGroupRows === undefined ? {} : { rowGroupRows: context.rowGroupRows }),
      });
    this.files = {
      sales_transactions: file('sales_transactions'),
      sales_lines: file('sales_lines'),
      sales_payments: file('sales_payments'),
      unmapped_transactions: file('unmapped_transactions'),
    };
  }

  /** Adds the latest version of one transaction. Throws a ReportDataError when a value cannot be written exactly. */
  add(record: TradeRecord, origin: TransactionOrigin): void {
    this.where = `trade_records[${origin.index}] of batch ${origin.batch_id}`;
    const standardCode = this.context.mapping.get(record.source_transaction_type);
    const standard = standardCode === undefined ? undefined : this.typesByCode.get(standardCode);
    const closed = record.closed_at == null ? undefined : this.timestamp(record.closed_at, 'closed_at');
    const payments = record.payments.map((payment) => this.paymentAmounts(payment));
    const row = this.transactionRow(record, origin, payments, closed, standardCode, standard);
    this.included.push([record.trade_record_id, record.version, record.last_modified_at]);
    this.codesUsed.set(record.source_transaction_type, standardCode ?? null);
    for (const [i, payment] of record.payments.entries()) this.paymentTypesUsed.set(payment.payment_type, payments[i]?.direction ?? null);
    const figures = {
      currency: record.currency,
      netSales: row.net_sales as bigint,
      tax: row.tax_amount as bigint,
      tip: row.tip_amount as bigint,
      total: row.total_amount as bigint,
      paymentTotal: row.payment_total_amount as bigint,
    };
    if (standard === undefined) {
      this.files.unmapped_transactions.append(row);
      this.sales.addUnmapped(record.source_transaction_type, figures);
      return;
    }
    // Lines and payments are converted before anything of this transaction is appended, so a
    // value that cannot be written leaves no partial transaction behind.
    const lines = record.items.map((item) => this.lineRow(record, item, standard, closed));
    const paymentRows = record.payments.map((payment, i) => this.paymentRow(record, payment, payments[i], standard.code));
    this.files.sales_transactions.append(row);
    for (const line of lines) this.files.sales_lines.append(line);
    for (const payment of paymentRows) this.files.sales_payments.append(payment);
    this.sales.addSale(standard.code, standard.is_revenue, figures);
  }

  /** The files and their row counts. */
  finish(): StoreDayFiles {
    const { counts, finished: files } = this.finishEach((file) => file.finish());
    return { files, counts };
  }

  /**
   * The rows as pre-encoded row groups, with what they were built from: the piece of a store-day
   * that one batch contributes, assembled with the other batches' pieces into the day's files.
   */
  finishFragment(): ReportFragmentContent {
    const { counts, finished: parts } = this.finishEach((file) => file.finishPart());
    return {
      transactions: this.included,
      codes: [...this.codesUsed],
      paymentTypes: [...this.paymentTypesUsed],
      counts,
      sales: this.sales.result(),
      parts,
    };
  }

  /** Finishes every dataset's file one way or the other; a file's row count is read before it is finished. */
  private finishEach<T>(finishFile: (file: ParquetFileBuilder) => T): {
    counts: Record<StoreDayDataset, number>;
    finished: Record<StoreDayDataset, T>;
  } {
    const counts = {} as Record<StoreDayDataset, number>;
    const finished = {} as Record<StoreDayDataset, T>;
    for (const dataset of storeDayDatasets) {
      counts[dataset] = this.files[dataset].rowCount;
      finished[dataset] = finishFile(this.files[dataset]);
    }
    return { counts, finished };
  }

  /**
   * The row of sales_transactions or unmapped_transactions (each file reads its own columns).
   * Rows are plain object literals of one shape, without spreads: they are built hundreds of
   * thousands of times on a large day.
   */
  private transactionRow(
    record: TradeRecord,
    origin: TransactionOrigin,
    payments: readonly PaymentAmounts[],
    closed: TimestampMicros | undefined,
    standardCode: string | undefined,
    standard: StandardTransactionType | undefined,
  ): ReportRow {
    const subtotal = this.amount(record.subtotal_amount, 'subtotal_amount');
    const discount = this.amount(record.discount_amount, 'discount_amount');
    const tax = this.amount(record.tax_amount, 'tax_amount');
    const serviceCharge = this.amount(record.service_charge_amount, 'service_charge_amount');
    const tip = this.amount(record.tip_amount, 'tip_amount');
    const rounding = this.amount(record.rounding_amount, 'rounding_amount');
    const total = this.amount(record.total_amount, 'total_amount');
    const beforeTax = subtotal - discount + serviceCharge + tip + rounding;
    let paymentTotal = 0n;
    let unknownDirections = 0;
    for (const { signed } of payments) {
      if (signed === null) unknownDirections += 1;
      else paymentTotal += signed;
    }
    const opened = this.timestamp(record.opened_at, 'opened_at');
    const { partner_id, business_date, store_id } = this.partition;
    return {
      partner_id,
      business_date,
      store_id,
      trade_record_id: record.trade_record_id,
      version: record.version,
      source_transaction_type: record.source_transaction_type,
      standard_type: standard?.code ?? null,
      is_revenue: standard?.is_revenue ?? null,
      mapped_standard_code: standard === undefined ? (standardCode ?? null) : null,
      unmapped_reason: standard !== undefined ? null : standardCode === undefined ? 'NO_MAPPING' : 'UNKNOWN_STANDARD_CODE',
      currency: record.currency,
      prices_include_tax: record.prices_include_tax,
      subtotal_amount: subtotal,
      discount_amount: discount,
      tax_amount: tax,
      service_charge_amount: serviceCharge,
      tip_amount: tip,
      rounding_amount: rounding,
      total_amount: total,
      net_sales: this.inRange(total - tax - tip, 'net_sales'),
      payment_total_amount: this.inRange(paymentTotal, 'payment_total_amount'),
      unknown_direction_payment_count: unknownDirections,
      item_row_count: record.items.length,
      payment_row_count: record.payments.length,
      amount_identity_holds: total === (record.prices_include_tax ? beforeTax : beforeTax + tax),
      status: record.status,
      order_type: record.order_type,
      order_source: record.order_source ?? null,
      order_source_detail: record.order_source_detail ?? null,
      opened_at: opened.utc,
      opened_at_local: opened.local,
      closed_at: closed?.utc ?? null,
      closed_at_local: closed?.local ?? null,
      last_modified_at: this.timestamp(record.last_modified_at, 'last_modified_at').utc,
      original_trade_record_id: record.original_trade_record_id ?? null,
      fiscal_document_no: record.fiscal_document_no ?? null,
      employee_id: record.employee_id ?? null,
      guest_count: record.guest_count ?? null,
      member_id: record.member_id ?? null,
      tax_lines: record.tax_lines ?? null,
      batch_id: origin.batch_id,
      batch_seq: origin.batch_seq,
    };
  }

  private lineRow(record: TradeRecord, item: TradeItem, standard: StandardTransactionType, closed: TimestampMicros | undefined): ReportRow {
    const parent = item.parent_line_no ?? null;
    const { partner_id, business_date, store_id } = this.partition;
    return {
      partner_id,
      business_date,
      store_id,
      trade_record_id: record.trade_record_id,
      version: record.version,
      standard_type: standard.code,
      is_revenue: standard.is_revenue,
      currency: record.currency,
      line_no: item.line_no,
      parent_line_no: parent,
      is_combo_child: parent !== null,
      is_voided: item.is_voided,
      product_id: item.product_id,
      product_name: item.product_name,
      product_type: item.product_type,
      tax_category: item.tax_category ?? null,
      quantity: this.scaled(item.quantity, 'sales_lines.quantity', QUANTITY_SCALE, QUANTITY_PRECISION),
      unit_price: this.amount(item.unit_price, 'sales_lines.unit_price'),
      discount_amount: this.amount(item.discount_amount, 'sales_lines.discount_amount'),
      line_amount: this.amount(item.line_amount, 'sales_lines.line_amount'),
      modifier_count: item.modifiers.length,
      modifiers: item.modifiers,
      closed_at: closed?.utc ?? null,
      closed_at_local: closed?.local ?? null,
    };
  }

  private paymentRow(record: TradeRecord, payment: Payment, amounts: PaymentAmounts | undefined, standardType: string): ReportRow {
    const { amount, direction, signed } = amounts ?? this.paymentAmounts(payment);
    const paid = this.timestamp(payment.paid_at, 'sales_payments.paid_at');
    const { partner_id, business_date, store_id } = this.partition;
    return {
      partner_id,
      business_date,
      store_id,
      trade_record_id: record.trade_record_id,
      version: record.version,
      standard_type: standardType,
      currency: record.currency,
      payment_id: payment.payment_id,
      payment_type: payment.payment_type,
      payment_method: payment.payment_method,
      payment_method_detail: payment.payment_method_detail ?? null,
      amount,
      tip_amount: payment.tip_amount === undefined ? null : this.amount(payment.tip_amount, 'sales_payments.tip_amount'),
      direction: direction ?? null,
      signed_amount: signed,
      paid_at: paid.utc,
      paid_at_local: paid.local,
      original_payment_id: payment.original_payment_id ?? null,
    };
  }

  private paymentAmounts(payment: Payment): PaymentAmounts {
    const amount = this.amount(payment.amount, 'sales_payments.amount');
    const direction = paymentDirection(payment.payment_type, this.directions);
    return { amount, direction, signed: direction === undefined ? null : amount * BigInt(direction) };
  }

  private amount(text: string, column: string): bigint {
    // Prices, zero amounts and common totals repeat throughout a day.
    let value = this.amounts.get(text);
    if (value === undefined) {
      value = this.scaled(text, column, AMOUNT_SCALE, AMOUNT_PRECISION);
      if (this.amounts.size >= maxCachedAmounts) this.amounts.clear();
      this.amounts.set(text, value);
    }
    return value;
  }

  private scaled(text: string, column: string, scale: number, precision: number): bigint {
    const value = toScaledInteger(text, scale, precision);
    if (value === undefined) {
      throw new ReportDataError(
        `${column} of ${this.where} does not fit DECIMAL(${precision}, ${scale}): at most ${precision - scale} integer digits and ${scale} decimal places`,
      );
    }
    return value;
  }

  /** A derived amount (a difference or a sum) must still fit its column. */
  private inRange(value: bigint, column: string): bigint {
    const limit = 10n ** BigInt(AMOUNT_PRECISION);
    if (value >= limit || value <= -limit) {
      throw new ReportDataError(`${column} of ${this.where} does not fit DECIMAL(${AMOUNT_PRECISION}, ${AMOUNT_SCALE})`);
    }
    return value;
  }

  private timestamp(text: string, column: string): TimestampMicros {
    const value = timestampMicros(text);
    if (value === undefined) throw new ReportDataError(`${column} of ${this.where} is not an ISO 8601 date-time with an offset`);
    return value;
  }
}
