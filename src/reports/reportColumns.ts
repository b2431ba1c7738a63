import { AMOUNT_FIELDS, COUNT_FIELDS, type ControlTotalField } from '../domain/reconciliation/ControlTotals.js';
import { controlTotalLabels } from '../domain/reconciliation/controlTotalLabels.js';
import type { ReportDataset } from './reportDatasets.js';

/**
 * Column types of the report files:
 * - `amount`: DECIMAL(18, 4) stored as INT64. One scale for every currency (at most 4 minor-unit
 *   digits in ISO 4217), so every file of a dataset has the same column type and readers can union
 *   any files — several stores, partners and currencies — without merging schemas.
 * - `quantity`: DECIMAL(18, 6) stored as INT64 (quantities are free decimals).
 * - `timestamp`: the instant, TIMESTAMP(MICROS, adjusted to UTC); `local_timestamp`: the store's
 *   wall-clock time as the POS wrote it, TIMESTAMP(MICROS, not adjusted to UTC).
 * - `date`: DATE. `int64`: INT64. `boolean`, `string` (UTF-8), `json` (a UTF-8 string holding JSON text).
 */
type ColumnType = 'string' | 'json' | 'amount' | 'quantity' | 'int64' | 'boolean' | 'date' | 'timestamp' | 'local_timestamp';

export interface ReportColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
  /** For the README's column tables. */
  readonly description: string;
}

/** Scale and precision of `amount` columns. */
export const AMOUNT_SCALE = 4;
export const AMOUNT_PRECISION = 18;
/** Scale and precision of `quantity` columns. */
export const QUANTITY_SCALE = 6;
export const QUANTITY_PRECISION = 18;

const col = (name: string, type: ColumnType, nullable: boolean, description: string): ReportColumn => ({
  name,
  type,
  nullable,
  description,
});

const partitionColumns = (withStore: boolean): ReportColumn[] => [
  col('partner_id', 'string', false, 'Partner; also the `partner_id=` level of the path.'),
  col('business_date', 'date', false, 'Business date of the store-day; also the `business_date=` level of the path.'),
  ...(withStore ? [col('store_id', 'string', false, 'Store; also the `store_id=` level of the path.')] : []),
];

const transactionAmounts: ReportColumn[] = [
  col('currency', 'string', false, 'ISO 4217 code of every amount of the transaction.'),
  col('prices_include_tax', 'boolean', false, 'Whether the amounts include tax.'),
  col('subtotal_amount', 'amount', false, 'Sum of item amounts before the order-level discount, as sent.'),
  col('discount_amount', 'amount', false, 'Order-level discount (positive = taken off), as sent.'),
  col('tax_amount', 'amount', false, 'Tax, as sent.'),
  col('service_charge_amount', 'amount', false, 'Service charge, as sent.'),
  col('tip_amount', 'amount', false, 'Tip, as sent.'),
  col('rounding_amount', 'amount', false, 'Cash rounding (may be negative), as sent.'),
  col('total_amount', 'amount', false, 'Total, as sent.'),
  col('net_sales', 'amount', false, "total_amount − tax_amount − tip_amount: the daily close's net sales of this transaction."),
  col(
    'payment_total_amount',
    'amount',
    false,
    'Σ payment amount × direction over the payments whose direction is known (DEPOSIT_APPLIED counts 0).',
  ),
  col(
    'unknown_direction_payment_count',
    'int64',
    false,
    'Payments whose payment_type has no known direction (left out of payment_total_amount).',
  ),
  col('item_row_count', 'int64', false, 'Rows in items, voided lines and combo children included.'),
  col('payment_row_count', 'int64', false, 'Rows in payments.'),
  col(
    'amount_identity_holds',
    'boolean',
    false,
    "Whether total_amount satisfies the contract's amount identity (false = accepted with AMOUNT_MISMATCH).",
  ),
];

const transactionDetails: ReportColumn[] = [
  col('status', 'string', false, 'OPEN, COMPLETED, VOIDED, REFUNDED or PARTIALLY_REFUNDED.'),
  col('order_type', 'string', false, 'How the order is fulfilled (DINE_IN, TO_GO, DELIVERY, PICK_UP, …).'),
  col('order_source', 'string', true, 'Where the order was placed; null when unknown.'),
  col('order_source_detail', 'string', true, 'Channel detail, e.g. a delivery platform.'),
  col('opened_at', 'timestamp', false, 'When the transaction was opened (UTC instant).'),
  col('opened_at_local', 'local_timestamp', false, 'The same, as the wall-clock time the POS wrote, its offset not applied.'),
  col('closed_at', 'timestamp', true, 'When it was closed (UTC instant); null while OPEN.'),
  col('closed_at_local', 'local_timestamp', true, 'The same, as the wall-clock time the POS wrote, its offset not applied.'),
  col('last_modified_at', 'timestamp', false, 'When this version was last changed (UTC instant).'),
  col('original_trade_record_id', 'string', true, 'For returns, refunds and exchanges: the original transaction.'),
  col('fiscal_document_no', 'string', true, 'Invoice or fiscal receipt number.'),
  col('employee_id', 'string', true, 'Employee code.'),
  col('guest_count', 'int64', true, 'Guests served.'),
  col('member_id', 'string', true, "The partner's pseudonymous loyalty id."),
  col('tax_lines', 'json', true, 'Tax breakdown as sent: array of {tax_code, tax_rate, taxable_amount, tax_amount, is_inclusive}.'),
  col('batch_id', 'string', false, 'The batch that delivered this version.'),
  col('batch_seq', 'int64', false, 'batch_seq of that batch.'),
];

const transactionKey: ReportColumn[] = [
  col('trade_record_id', 'string', false, 'Transaction id, unique within the partner.'),
  col('version', 'int64', false, 'The latest version received (only the latest is written).'),
  col('source_transaction_type', 'string', false, "The partner's own transaction code."),
];

/** Every column of every dataset, in file order. */
export const reportColumns: Readonly<Record<ReportDataset, readonly ReportColumn[]>> = {
  sales_transactions: [
    ...partitionColumns(true),
    ...transactionKey,
    col('standard_type', 'string', false, 'HQ standard transaction type the code is mapped to.'),
    col('is_revenue', 'boolean', false, 'Whether the standard type counts toward revenue: filter on it for net sales, tax and tip.'),
    ...transactionAmounts,
    ...transactionDetails,
  ],
  unmapped_transactions: [
    ...partitionColumns(true),
    ...transactionKey,
    col(
      'mapped_standard_code',
      'string',
      true,
      'The standard code the mapping names when that code is not in the standard list; null when the code has no mapping.',
    ),
    col('unmapped_reason', 'string', false, 'NO_MAPPING or UNKNOWN_STANDARD_CODE.'),
    ...transactionAmounts,
    ...transactionDetails,
  ],
  sales_lines: [
    ...partitionColumns(true),
    col('trade_record_id', 'string', false, 'Transaction the line belongs to.'),
    col('version', 'int64', false, 'Version of that transaction.'),
    col('standard_type', 'string', false, 'Standard type of the transaction.'),
    col('is_revenue', 'boolean', false, 'Whether that standard type counts toward revenue.'),
    col('currency', 'string', false, 'ISO 4217 code of the amounts.'),
    col('line_no', 'int64', false, 'Line number within the transaction.'),
    col('parent_line_no', 'int64', true, 'For combo child lines: the combo line; null otherwise.'),
    col(
      'is_combo_child',
      'boolean',
      false,
      'A combo child line: counts toward quantities, not revenue (its price is 0; the revenue is on the combo line).',
    ),
    col('is_voided', 'boolean', false, 'A line deleted before checkout: leave it out of sales figures.'),
    col('product_id', 'string', false, "The partner's product code (the product actually served, for combo children)."),
    col('product_name', 'string', false, 'Name at the time of sale.'),
    col('product_type', 'string', false, 'SINGLE, COMBO, SIDE, DRINK or MODIFIER.'),
    col('tax_category', 'string', true, 'STANDARD, REDUCED, ZERO or EXEMPT.'),
    col('quantity', 'quantity', false, 'Quantity; negative on returned lines.'),
    col('unit_price', 'amount', false, 'Unit price including modifier deltas.'),
    col('discount_amount', 'amount', false, 'Line discount.'),
    col('line_amount', 'amount', false, 'quantity × unit_price − discount_amount, as sent.'),
    col('modifier_count', 'int64', false, 'Number of modifiers chosen.'),
    col('modifiers', 'json', false, 'Modifiers as sent: array of {group_id, option_id, option_name, quantity, price_delta}.'),
    col('closed_at', 'timestamp', true, 'When the transaction was closed (UTC instant).'),
    col('closed_at_local', 'local_timestamp', true, 'The same, as the wall-clock time the POS wrote, its offset not applied.'),
  ],
  sales_payments: [
    ...partitionColumns(true),
    col('trade_record_id', 'string', false, 'Transaction the payment belongs to.'),
    col('version', 'int64', false, 'Version of that transaction.'),
    col('standard_type', 'string', false, 'Standard type of the transaction.'),
    col('currency', 'string', false, 'ISO 4217 code of the amounts.'),
    col('payment_id', 'string', false, 'Payment id, unique within the partner.'),
    col('payment_type', 'string', false, 'What the money is for: SALE, REFUND, DEPOSIT, DEPOSIT_APPLIED, ADJUSTMENT or a partner code.'),
    col('payment_method', 'string', false, 'The instrument: CREDIT_CARD, CASH, GIFT_CARD, LOYALTY_POINTS, …'),
    col('payment_method_detail', 'string', true, 'Card network, wallet, points amount, …'),
    col('amount', 'amount', false, 'Amount as sent: positive (only ADJUSTMENT may be negative), tip included.'),
    col('tip_amount', 'amount', true, 'Tip portion of amount.'),
    col('direction', 'int64', true, '1, -1 or 0 (DEPOSIT_APPLIED): how the amount counts in the payment total; null when unknown.'),
    col('signed_amount', 'amount', true, 'amount × direction; null when the direction is unknown. Σ signed_amount is the payment total.'),
    col('paid_at', 'timestamp', false, 'When it was paid (UTC instant).'),
    col('paid_at_local', 'local_timestamp', false, 'The same, as the wall-clock time the POS wrote, its offset not applied.'),
    col('original_payment_id', 'string', true, 'For refunds and voids: the original payment.'),
  ],
  store_days: [
    ...partitionColumns(false),
    col('store_id', 'string', false, 'Store.'),
    col('currency', 'string', false, "The store's currency (the daily close's)."),
    col('status', 'string', false, 'MATCHED or MISMATCHED.'),
    col('reconciled_at', 'timestamp', false, 'When the reconciliation ran (UTC instant).'),
    col('close_batch_id', 'string', false, 'batch_id of the daily close reconciled against.'),
    ...(['expected', 'actual'] as const).flatMap((side) => {
      const source = side === 'expected' ? 'the daily close' : 'HQ recomputed from the transactions';
      const total = (field: ControlTotalField, type: ColumnType): ReportColumn =>
        col(`${side}_${field}`, type, false, `${controlTotalLabels[field]}, as ${source}.`);
      return [...COUNT_FIELDS.map((field) => total(field, 'int64')), ...AMOUNT_FIELDS.map((field) => total(field, 'amount'))];
    }),
    col('differences', 'string', false, 'Names of the fields that differ, comma-separated; empty when MATCHED.'),
    col('sales_transaction_count', 'int64', false, 'Rows of the store-day in sales_transactions.'),
    col('sales_line_count', 'int64', false, 'Rows of the store-day in sales_lines.'),
    col('sales_payment_count', 'int64', false, 'Rows of the store-day in sales_payments.'),
    col(
      'unmapped_transaction_count',
      'int64',
      false,
      'Rows of the store-day in unmapped_transactions: held back until their code is mapped.',
    ),
    col('report_generated_at', 'timestamp', false, "When this store-day's files were built (UTC instant)."),
    col(
      'report_files_id',
      'string',
      true,
      "Names the store-day's set of files as built: each of its files carries the same value under `pos.report_files_id` in its footer's key-value metadata; a file with another value is from another build (a rewrite under way). Null for rows built before the id.",
    ),
  ],
  stores: [
    col('partner_id', 'string', false, 'Partner; also the `partner_id=` level of the path.'),
    col('store_id', 'string', false, 'Store, as HQ registered it for the partner.'),
    col(
      'registration_status',
      'string',
      false,
      "ACTIVE, or RETIRED once HQ retired the store (the partner's data for it is refused from then).",
    ),
    col('registered_at', 'timestamp', true, 'When HQ registered the store (UTC instant); null for registrations older than the field.'),
    col('retired_at', 'timestamp', true, 'When HQ retired it (UTC instant); null while ACTIVE.'),
    col('store_name', 'string', true, "The store's master data as the partner last sent it (PUT /stores); null until sent."),
    col('country_code', 'string', true, 'Country.'),
    col('currency', 'string', true, 'ISO 4217 code of the store’s amounts.'),
    col('time_zone', 'string', true, 'IANA time zone: convert the sales files’ UTC instants with it for local time.'),
    col('locale', 'string', true, 'Locale.'),
    col('workday_start', 'string', true, '`HH:mm` local time at which a business date begins.'),
    col('prices_include_tax', 'boolean', true, 'Whether product prices include tax.'),
    col('status', 'string', true, "ACTIVE or INACTIVE, as the partner's master data says."),
    col('last_modified_at', 'timestamp', true, 'When the partner last changed the master data (UTC instant).'),
    col('snapshot_at', 'timestamp', false, 'When this file was built (UTC instant).'),
  ],
  products: [
    col('partner_id', 'string', false, 'Partner; also the `partner_id=` level of the path.'),
    col('product_id', 'string', false, "The partner's product code (sales_lines.product_id)."),
    col('store_id', 'string', true, 'The store of a store-specific product; null for one shared by all stores.'),
    col('sku', 'string', true, 'Barcode or SKU.'),
    col('name', 'json', false, 'Localized names: a JSON object of locale → name.'),
    col('category_id', 'string', true, 'Category.'),
    col('category_name', 'json', true, 'Localized category names: a JSON object of locale → name.'),
    col('unit_price', 'amount', false, 'Selling price; tax inclusion follows the store’s prices_include_tax.'),
    col('currency', 'string', false, 'ISO 4217 code of unit_price.'),
    col('tax_category', 'string', true, 'STANDARD, REDUCED, ZERO or EXEMPT.'),
    col('status', 'string', false, 'ACTIVE or INACTIVE.'),
    col('effective_from', 'timestamp', true, 'When the price takes effect (UTC instant).'),
    col('version', 'int64', false, 'The version stored: the highest the partner sent.'),
    col('last_modified_at', 'timestamp', false, 'When the partner last changed the product (UTC instant).'),
    col('product_type', 'string', false, 'SINGLE, COMBO, SIDE, DRINK or MODIFIER.'),
    col('modifier_group_ids', 'json', true, 'The modifier groups it can take: a JSON array of group_id.'),
    col(
      'combo_components',
      'json',
      true,
      'For a COMBO: its components as a JSON array (product_id, quantity, is_substitutable, substitute_group_id).',
    ),
    col('snapshot_at', 'timestamp', false, 'When this file was built (UTC instant).'),
  ],
  transaction_type_mappings: [
    col('partner_id', 'string', false, 'Partner; also the `partner_id=` level of the path.'),
    col(
      'source_transaction_type',
      'string',
      false,
      "The partner's own transaction code (the mapping's source_code), as in the sales and unmapped files.",
    ),
    col('source_name', 'string', true, "The partner's name for the code, as uploaded."),
    col('standard_type', 'string', false, 'The HQ standard code the mapping names for it.'),
    col(
      'is_standard',
      'boolean',
      false,
      "Whether the standard list has that code; false: the code's transactions are held back (UNKNOWN_STANDARD_CODE).",
    ),
    col('is_revenue', 'boolean', true, 'Whether that standard type counts toward revenue; null when the list does not have it.'),
    col('mapping_batch_id', 'string', false, 'batch_id of the mapping upload in effect.'),
    col('mapping_updated_at', 'timestamp', true, 'When that upload took effect (UTC instant).'),
    col('snapshot_at', 'timestamp', false, 'When this file was built (UTC instant).'),
  ],
};
