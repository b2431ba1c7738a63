/**
 * Shapes of the request bodies of contract §2 and §4, as they are after schema validation.
 * Amounts stay decimal strings end to end; they are only ever read with big.js.
 */
export type DecimalString = string;
/**
 * Texts by locale tag. `| undefined` as in the type generated from the schema: with
 * noUncheckedIndexedAccess a read by tag is `string | undefined` either way.
 */
export type LocalizedText = Readonly<Record<string, string | undefined>>;

export interface TradeModifier {
  group_id: string;
  option_id: string;
  option_name?: string;
  quantity: DecimalString;
  price_delta: DecimalString;
}

export interface TradeItem {
  line_no: number;
  parent_line_no?: number | null;
  product_id: string;
  product_name: string;
  product_type: 'SINGLE' | 'COMBO' | 'SIDE' | 'DRINK' | 'MODIFIER';
  quantity: DecimalString;
  unit_price: DecimalString;
  discount_amount: DecimalString;
  line_amount: DecimalString;
  tax_category?: 'STANDARD' | 'REDUCED' | 'ZERO' | 'EXEMPT';
  modifiers: TradeModifier[];
  is_voided: boolean;
}

export interface Payment {
  payment_id: string;
  payment_type: string;
  payment_method: string;
  payment_method_detail?: string;
  card_last4?: string;
  amount: DecimalString;
  tip_amount?: DecimalString;
  paid_at: string;
  original_payment_id?: string | null;
}

export interface TaxLine {
  tax_code: string;
  tax_rate: DecimalString;
  taxable_amount: DecimalString;
  tax_amount: DecimalString;
  is_inclusive: boolean;
}

export interface TradeRecord {
  trade_record_id: string;
  version: number;
  store_id: string;
  business_date: string;
  source_transaction_type: string;
  order_type: string;
  order_source?: string | null;
  order_source_detail?: string | null;
  status: 'OPEN' | 'COMPLETED' | 'VOIDED' | 'REFUNDED' | 'PARTIALLY_REFUNDED';
  opened_at: string;
  closed_at?: string | null;
  currency: string;
  prices_include_tax: boolean;
  subtotal_amount: DecimalString;
  discount_amount: DecimalString;
  tax_amount: DecimalString;
  service_charge_amount: DecimalString;
  tip_amount: DecimalString;
  rounding_amount: DecimalString;
  total_amount: DecimalString;
  original_trade_record_id?: string | null;
  fiscal_document_no?: string | null;
  employee_id?: string;
  guest_count?: number;
  member_id?: string | null;
  last_modified_at: string;
  items: TradeItem[];
  payments: Payment[];
  tax_lines?: TaxLine[];
}

export interface TradeRecordBatch {
  batch_id: string;
  store_id: string;
  business_date: string;
  batch_seq: number;
  trade_records: TradeRecord[];
}

export interface DailyClose {
  batch_id: string;
  store_id: string;
  business_date: string;
  batch_count: number;
  trade_record_count: number;
  item_row_count: number;
  payment_row_count: number;
  net_sales_amount: DecimalString;
  tax_amount: DecimalString;
  tip_amount: DecimalString;
  payment_total_amount: DecimalString;
  currency: string;
  closed_at: string;
}

export interface Store {
  store_id: string;
  store_name: string;
  country_code: string;
  currency: string;
  time_zone: string;
  locale: string;
  workday_start: string;
  prices_include_tax: boolean;
  status: 'ACTIVE' | 'INACTIVE';
  last_modified_at: string;
}

export interface StoreBatch {
  batch_id: string;
  stores: Store[];
}

export interface ComboComponent {
  product_id: string;
  quantity: DecimalString;
  is_substitutable: boolean;
  substitute_group_id?: string;
}

export interface Product {
  product_id: string;
  store_id?: string | null;
  sku?: string;
  name: LocalizedText;
  category_id?: string;
  category_name?: LocalizedText;
  unit_price: DecimalString;
  currency: string;
  tax_category?: 'STANDARD' | 'REDUCED' | 'ZERO' | 'EXEMPT';
  status: 'ACTIVE' | 'INACTIVE';
  effective_from?: string;
  version: number;
  last_modified_at: string;
  product_type: 'SINGLE' | 'COMBO' | 'SIDE' | 'DRINK' | 'MODIFIER';
  modifier_group_ids?: string[];
  combo_components?: ComboComponent[];
}

export interface ModifierOption {
  option_id: string;
  name: LocalizedText;
  price_delta: DecimalString;
  is_default?: boolean;
}

export interface ModifierGroup {
  group_id: string;
  name: LocalizedText;
  min_select: number;
  max_select: number;
  options: ModifierOption[];
}

export interface ProductBatch {
  batch_id: string;
  products: Product[];
  modifier_groups?: ModifierGroup[];
}

export interface MappingEntry {
  source_code: string;
  source_name?: string;
  standard_code: string;
}

export interface MappingBatch {
  batch_id: string;
  mappings: MappingEntry[];
}
