/* Generated from schemas/ by generateContractTypes.ts (npm run generate:types). Do not edit. */

/**
 * A UUID in its 36-character hyphenated form.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Uuid".
 */
export type Uuid = string;
/**
 * A calendar date YYYY-MM-DD.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Date".
 */
export type CalendarDate = string;
/**
 * An ISO 8601 date-time with seconds and a UTC offset, Z or +hh:mm / -hh:mm, e.g. 2026-03-01T12:30:00+09:00. A timestamp without an offset is rejected.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Timestamp".
 */
export type Timestamp = string;
/**
 * A timestamp (see timestamp) or null.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "TimestampOrNull".
 */
export type TimestampOrNull = string | null;
/**
 * A decimal number carried as a JSON string, e.g. "12.50" or "-3". Used as is for quantities and tax rates.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Decimal".
 */
export type Decimal = string;
/**
 * A money amount as a decimal string of at most 14 integer digits and 4 decimal places (what the HQ report files hold exactly, as DECIMAL(18,4)); the number of decimal places must equal the minor-unit digits of the currency (checked after the schema).
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Amount".
 */
export type Amount = string;
/**
 * A quantity as a decimal string of at most 12 integer digits and 6 decimal places (what the HQ report files hold exactly, as DECIMAL(18,6)), e.g. "2", "-1" or "0.125".
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Quantity".
 */
export type Quantity = string;
/**
 * An ISO 4217 currency code, three capital letters.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Currency".
 */
export type Currency = string;
/**
 * A partner code or identifier: 1 to 128 characters (code points) of any script. Refused: control characters (U+0000-U+001F, U+007F-U+009F), line and paragraph separators (U+2028, U+2029), bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and other invisible format characters (U+00AD, U+180E, U+200B-U+200D, U+2060-U+2065, U+FEFF, U+FFF9-U+FFFB), and whitespace at the start or the end (so empty and whitespace-only values too). Whitespace inside is kept.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Identifier".
 */
export type Identifier = string;
/**
 * An identifier (see identifier) or null.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "IdentifierOrNull".
 */
export type IdentifierOrNull = string | null;
/**
 * A code of an open enumeration: capital letters, digits and underscores, starting with a letter, up to 50 characters.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Code".
 */
export type Code = string;
/**
 * A free string of 1 to 50 characters (code points), without control characters (U+0000-U+001F, U+007F-U+009F).
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "ShortText".
 */
export type ShortText = string;
/**
 * A free string (see shortText), or null.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "ShortTextOrNull".
 */
export type ShortTextOrNull = string | null;
/**
 * Free text such as a name: 1 to 500 characters (code points), without control characters (U+0000-U+001F, U+007F-U+009F): no tabs, line breaks or terminal escapes.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Text".
 */
export type Text = string;
/**
 * A BCP 47 language tag such as en-US or zh-TW.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "LocaleTag".
 */
export type LocaleTag = string;
/**
 * The text of one locale: up to 500 characters (code points) without control characters.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "LocalizedValue".
 */
export type LocalizedValue = string;
/**
 * An integer from 1 to 9007199254740991.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "PositiveInteger".
 */
export type PositiveInteger = number;
/**
 * An integer from 0 to 9007199254740991.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Count".
 */
export type Count = number;
/**
 * Kind of product or line.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "ProductType".
 */
export type ProductType = 'SINGLE' | 'COMBO' | 'SIDE' | 'DRINK' | 'MODIFIER';
/**
 * Tax category.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "TaxCategory".
 */
export type TaxCategory = 'STANDARD' | 'REDUCED' | 'ZERO' | 'EXEMPT';
/**
 * Status of a master-data entry.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "ActiveStatus".
 */
export type ActiveStatus = 'ACTIVE' | 'INACTIVE';
/**
 * The event id, also sent as the webhook-id header: the same on every attempt and every resend of one event, so receivers deduplicate on it.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "EventId".
 */
export type EventId = string;
/**
 * A calendar date YYYY-MM-DD.
 */
export type CalendarDate1 = string;
/**
 * A timestamp (see timestamp) or null.
 */
export type TimestampOrNull1 = string | null;
/**
 * A timestamp (see timestamp) or null.
 */
export type TimestampOrNull2 = string | null;
/**
 * The webhook endpoint with its signing secret, answered this once: on the first registration and on a rotation. Store it as securely as the API key.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "WebhookWithSecret".
 */
export type WebhookWithSecret = Webhook & WebhookWithSecret1;
/**
 * Open enumeration: DINE_IN, TO_GO, DELIVERY, PICK_UP and codes HQ may add; any code-shaped value is accepted.
 */
export type Code1 = string;
/**
 * A free string (see shortText), or null.
 */
export type ShortTextOrNull1 = string | null;
/**
 * Open enumeration: CREDIT_CARD, CASH, GIFT_CARD, LOYALTY_POINTS and codes HQ may add; any code-shaped value is accepted.
 */
export type Code2 = string;

/**
 * An object whose keys are BCP 47 locale tags and whose values are texts of up to 500 characters (code points) without control characters; at least one locale, at most 100.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "LocalizedText".
 */
export interface LocalizedText {
  [k: string]: LocalizedValue | undefined;
}
/**
 * Control totals of one store and business date. net_sales_amount, tax_amount and tip_amount are sums over the latest version of each transaction whose mapped standard transaction type has is_revenue = true; the counts and payment_total_amount cover every transaction. Unknown fields are rejected with INVALID_PAYLOAD.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "DailyCloseBody".
 */
export interface DailyCloseBody {
  batch_id: Uuid;
  store_id: Identifier;
  business_date: CalendarDate;
  batch_count: Count;
  trade_record_count: Count;
  item_row_count: Count;
  payment_row_count: Count;
  net_sales_amount: Amount;
  tax_amount: Amount;
  tip_amount: Amount;
  payment_total_amount: Amount;
  currency: Currency;
  closed_at: Timestamp;
}
/**
 * reconciliation.completed (every reconciliation result) or reconciliation.changed (a later result of the same day changed its status or figures). type is the environment's EVENT_TYPE_PREFIX, a dot and the event name. source + "/" + subject is the GET path of the same result, data is that result and time its checked_at.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "ReconciliationEvent".
 */
export interface ReconciliationEvent {
  specversion: '1.0';
  id: EventId;
  source: '/pos/v1/daily-close';
  type: string;
  /**
   * <store_id>/<business_date>.
   */
  subject: string;
  time: Timestamp;
  datacontenttype: 'application/json';
  data: ReconciliationResult;
}
/**
 * Reconciliation state of one store and business date (contract §2.12). diagnosis goes beyond the contract: why the figures may differ and what to resend; null until reconciled.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "ReconciliationResult".
 */
export interface ReconciliationResult {
  store_id: string;
  business_date: CalendarDate;
  status: 'NOT_RECEIVED' | 'RECEIVED' | 'MATCHED' | 'MISMATCHED';
  checked_at: TimestampOrNull;
  expected: ControlTotals | null;
  actual: ControlTotals | null;
  /**
   * Names of the fields of expected and actual that differ; empty when they agree.
   */
  differences: string[];
  /**
   * Null until the day is reconciled.
   */
  diagnosis?: Diagnosis | null;
}
/**
 * The seven figures of a store-day: declared by the daily close (expected) or recomputed by HQ (actual).
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "ControlTotals".
 */
export interface ControlTotals {
  trade_record_count: Count;
  item_row_count: Count;
  payment_row_count: Count;
  net_sales_amount: Amount;
  tax_amount: Amount;
  tip_amount: Amount;
  payment_total_amount: Amount;
}
/**
 * Why a reconciled day's figures may differ from its close, and what to resend. More fields may be added. batch_count is not one of the compared figures: a batch_seq missing from 1..batch_count shows here and in hints, whatever the status.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Diagnosis".
 */
export interface Diagnosis {
  /**
   * batch_seq numbers from 1 to the close's batch_count that were not received, ascending (at most 500 listed).
   */
  missing_batch_seqs: number[];
  /**
   * How many of 1..batch_count were not received.
   */
  missing_batch_count: number;
  /**
   * batch_seq numbers above batch_count that were received, ascending (at most 500 listed).
   */
  unexpected_batch_seqs: number[];
  /**
   * Batches received after the daily close.
   */
  batches_after_close: number;
  /**
   * Source codes with no mapping, most frequent first (at most 50).
   */
  unmapped_transaction_types: {
    source_code: string;
    transaction_count: number;
  }[];
  /**
   * payment_type values with no known direction, most frequent first (at most 50).
   */
  unknown_payment_types: {
    payment_type: string;
    payment_count: number;
  }[];
  /**
   * Plain-English advice to the partner.
   */
  hints: string[];
}
/**
 * batch.failed: a batch ended in the failed state; none of its transactions are counted. subject is the batch_id and time is data.failed_at. Send the records again under a new batch_id; give HQ the batch_id when asking about it.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "BatchFailedEvent".
 */
export interface BatchFailedEvent {
  specversion: '1.0';
  id: EventId;
  /**
   * The push endpoint the batch was sent to.
   */
  source: '/pos/v1/trade-records' | '/pos/v1/daily-close' | '/pos/v1/stores' | '/pos/v1/products' | '/pos/v1/mappings/transaction-types';
  type: string;
  subject: Uuid;
  time: Timestamp;
  datacontenttype: 'application/json';
  data: BatchFailedData;
}
/**
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "BatchFailedData".
 */
export interface BatchFailedData {
  batch_id: Uuid;
  status: 'FAILED';
  /**
   * The error the push was answered with (or would have been): branch on the code.
   */
  error: {
    /**
     * A code of the error catalogue, e.g. BATCH_FAILED.
     */
    code: string;
    message: string;
  };
  failed_at: Timestamp;
}
/**
 * The complete transaction-type mapping of the partner, replacing the previous one. Unknown fields are rejected with INVALID_PAYLOAD. At most 10000 entries per upload (the contract leaves the limit open; this is the service's limit).
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "MappingsBody".
 */
export interface MappingsBody {
  batch_id: Uuid;
  /**
   * @minItems 1
   * @maxItems 10000
   */
  mappings: MappingEntry[];
}
/**
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "MappingEntry".
 */
export interface MappingEntry {
  source_code: Identifier;
  source_name?: Text;
  standard_code: Identifier;
}
/**
 * Products and modifier groups to upsert. Unknown fields are rejected with INVALID_PAYLOAD. The products array may be empty; more than maxItems products is answered with BATCH_TOO_LARGE (checked before the rest of the schema). Each product and each modifier group is stored as one row of at most 1 MiB; a larger one is refused with its path.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "ProductsBody".
 */
export interface ProductsBody {
  batch_id: Uuid;
  /**
   * 0 to 500 products (contract §4.6); more is BATCH_TOO_LARGE.
   *
   * @maxItems 500
   */
  products: Product[];
  /**
   * 0 to 500 modifier groups.
   *
   * @maxItems 500
   */
  modifier_groups?: ModifierGroup[];
}
/**
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Product".
 */
export interface Product {
  product_id: Identifier;
  store_id?: IdentifierOrNull;
  sku?: Identifier;
  name: LocalizedText;
  category_id?: Identifier;
  category_name?: LocalizedText;
  unit_price: Amount;
  currency: Currency;
  tax_category?: TaxCategory;
  status: ActiveStatus;
  effective_from?: Timestamp;
  version: Count;
  last_modified_at: Timestamp;
  product_type: ProductType;
  /**
   * 0 to 50 modifier groups usable with the product.
   *
   * @maxItems 50
   */
  modifier_group_ids?: Identifier[];
  /**
   * 0 to 50 items of a combo.
   *
   * @maxItems 50
   */
  combo_components?: ComboComponent[];
}
/**
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "ComboComponent".
 */
export interface ComboComponent {
  product_id: Identifier;
  quantity: Decimal;
  is_substitutable: boolean;
  substitute_group_id?: Identifier;
}
/**
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "ModifierGroup".
 */
export interface ModifierGroup {
  group_id: Identifier;
  name: LocalizedText;
  min_select: Count;
  max_select: Count;
  /**
   * 1 to 100 options.
   *
   * @minItems 1
   * @maxItems 100
   */
  options: ModifierOption[];
}
/**
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "ModifierOption".
 */
export interface ModifierOption {
  option_id: Identifier;
  name: LocalizedText;
  price_delta: Amount;
  is_default?: boolean;
}
/**
 * An outcome that never rejects a push (contract §2.2). The message is for people and may change; branch on the code.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Warning".
 */
export interface Warning {
  /**
   * AMOUNT_MISMATCH, UNKNOWN_PRODUCT, UNMAPPED_TRANSACTION_TYPE, UNKNOWN_PAYMENT_TYPE, STALE_VERSION, DAY_ALREADY_CLOSED, BATCH_ID_REUSED or STORE_NOT_UPLOADED; more may be added.
   */
  code: string;
  /**
   * Where the warning applies: trade_records[<index>], stores[<index>] or products[<index>] for one entry of the batch, or the name of a top-level field (business_date, batch_id, store_id).
   */
  path: string;
  message: string;
}
/**
 * Answer to every push: 202 with status ACCEPTED on first receipt, 200 with status ALREADY_RECEIVED (and the first receipt's record_count and warnings) when the batch_id was received before.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "BatchAcknowledgement".
 */
export interface BatchAcknowledgement {
  batch_id: Uuid;
  status: 'ACCEPTED' | 'ALREADY_RECEIVED';
  record_count: Count;
  warnings: Warning[];
}
/**
 * Body of every error the service decides itself. The code is stable; the message is for people and never quotes values from the request.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "ErrorBody".
 */
export interface ErrorBody {
  error: {
    /**
     * Stable error code; see the error catalogue.
     */
    code: string;
    message: string;
    /**
     * The x-request-id of the response: give it to HQ when asking about this error.
     */
    request_id?: string;
    /**
     * One entry per problem found (at most 50): a JSON Pointer into the body or path, and what is wrong there.
     *
     * @maxItems 50
     */
    details?: {
      /**
       * JSON Pointer, e.g. /trade_records/3/items/0/quantity ('' for the whole body).
       */
      path: string;
      message: string;
    }[];
  };
}
/**
 * The transaction-type mapping in effect (contract §2.5).
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "CurrentMapping".
 */
export interface CurrentMapping {
  partner_id: string;
  /**
   * Batch of the mapping in effect; null if none was ever uploaded.
   */
  batch_id: string | null;
  updated_at: TimestampOrNull;
  mappings: MappingEntry[];
}
/**
 * One HQ standard transaction type (contract §2.6).
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "StandardTransactionType".
 */
export interface StandardTransactionType {
  code: string;
  name: LocalizedText;
  is_revenue: boolean;
  /**
   * 1, -1 or 0; null when the sign follows the item lines (EXCHANGE).
   */
  amount_sign: 1 | -1 | 0 | null;
  description: string;
}
/**
 * The versioned standard transaction type list (contract §4.9).
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "StandardTransactionTypeList".
 */
export interface StandardTransactionTypeList {
  version: CalendarDate1;
  data: StandardTransactionType[];
}
/**
 * The partner's webhook endpoint. The signing secret is never shown again after it was answered once.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Webhook".
 */
export interface Webhook {
  url: string;
  event_types: ('reconciliation.completed' | 'reconciliation.changed' | 'batch.failed')[];
  created_at: Timestamp;
  updated_at: Timestamp;
  previous_secret_expires_at: TimestampOrNull1;
  disabled_at: TimestampOrNull2;
}
export interface WebhookWithSecret1 {
  /**
   * The secret that signs every delivery.
   */
  secret: string;
}
/**
 * Health of the service: ok when storage answers.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Health".
 */
export interface Health {
  status: 'ok' | 'unavailable';
}
/**
 * Store master data to upsert by store_id. Unknown fields are rejected with INVALID_PAYLOAD. More than maxItems stores is answered with BATCH_TOO_LARGE (checked before the rest of the schema).
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "StoresBody".
 */
export interface StoresBody {
  batch_id: Uuid;
  /**
   * 1 to 500 stores (contract §4.5); more is BATCH_TOO_LARGE.
   *
   * @minItems 1
   * @maxItems 500
   */
  stores: Store[];
}
/**
 * One store's master data. The later last_modified_at wins; one more than 24 hours after the service's clock is refused (checked after the schema), since no correction could follow it.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Store".
 */
export interface Store {
  store_id: Identifier;
  store_name: Text;
  /**
   * ISO 3166-1 alpha-2, two capital letters (the code itself is checked after the schema).
   */
  country_code: string;
  currency: Currency;
  /**
   * An IANA time zone name such as Asia/Tokyo, in its own letter case (checked against the runtime's zone data after the schema).
   */
  time_zone: string;
  locale: LocaleTag;
  /**
   * Store-local time HH:mm from 00:00 to 23:59.
   */
  workday_start: string;
  prices_include_tax: boolean;
  status: ActiveStatus;
  last_modified_at: Timestamp;
}
/**
 * A batch of transactions of one store and business date. Unknown fields anywhere are rejected with INVALID_PAYLOAD. More than maxItems trade_records is answered with BATCH_TOO_LARGE (checked before the rest of the schema). Every array has a maxItems set from what a POS transaction needs and what one stored row can hold.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "TradeRecordsBody".
 */
export interface TradeRecordsBody {
  batch_id: Uuid;
  store_id: Identifier;
  business_date: CalendarDate;
  batch_seq: PositiveInteger;
  /**
   * 1 to 500 transactions (contract §4.2); more is BATCH_TOO_LARGE.
   *
   * @minItems 1
   * @maxItems 500
   */
  trade_records: TradeRecord[];
}
/**
 * One transaction (contract §2.7).
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "TradeRecord".
 */
export interface TradeRecord {
  trade_record_id: Identifier;
  version: PositiveInteger;
  store_id: Identifier;
  business_date: CalendarDate;
  source_transaction_type: Identifier;
  order_type: Code1;
  order_source?: ShortTextOrNull;
  order_source_detail?: ShortTextOrNull;
  status: 'OPEN' | 'COMPLETED' | 'VOIDED' | 'REFUNDED' | 'PARTIALLY_REFUNDED';
  opened_at: Timestamp;
  closed_at?: TimestampOrNull;
  currency: Currency;
  prices_include_tax: boolean;
  subtotal_amount: Amount;
  discount_amount: Amount;
  tax_amount: Amount;
  service_charge_amount: Amount;
  tip_amount: Amount;
  rounding_amount: Amount;
  total_amount: Amount;
  original_trade_record_id?: IdentifierOrNull;
  fiscal_document_no?: IdentifierOrNull;
  employee_id?: Identifier;
  guest_count?: Count;
  member_id?: ShortTextOrNull1;
  last_modified_at: Timestamp;
  /**
   * 1 to 500 item lines, combo child lines and voided lines included.
   *
   * @minItems 1
   * @maxItems 500
   */
  items: TradeItem[];
  /**
   * 0 to 50 payments (split tenders); the payments of a transaction are kept in one stored row.
   *
   * @maxItems 50
   */
  payments: Payment[];
  /**
   * 0 to 50 tax lines.
   *
   * @maxItems 50
   */
  tax_lines?: TaxLine[];
}
/**
 * One item line (contract §2.8).
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "TradeItem".
 */
export interface TradeItem {
  line_no: PositiveInteger;
  parent_line_no?: number | null;
  product_id: Identifier;
  product_name: Text;
  product_type: ProductType;
  quantity: Quantity;
  unit_price: Amount;
  discount_amount: Amount;
  line_amount: Amount;
  tax_category?: TaxCategory;
  /**
   * 0 to 50 modifiers chosen on the line.
   *
   * @maxItems 50
   */
  modifiers: TradeModifier[];
  is_voided: boolean;
}
/**
 * A modifier chosen on a line (contract §2.8).
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "TradeModifier".
 */
export interface TradeModifier {
  group_id: Identifier;
  option_id: Identifier;
  option_name?: Text;
  quantity: Quantity;
  price_delta: Amount;
}
/**
 * One payment (contract §2.9).
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "Payment".
 */
export interface Payment {
  payment_id: Identifier;
  payment_type: ShortText;
  payment_method: Code2;
  /**
   * Card network, wallet or points detail: 1 to 100 characters (code points) without control characters.
   */
  payment_method_detail?: string;
  /**
   * Exactly four digits.
   */
  card_last4?: string;
  amount: Amount;
  tip_amount?: Amount;
  paid_at: Timestamp;
  original_payment_id?: IdentifierOrNull;
}
/**
 * One line of the tax breakdown (contract §2.10).
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "TaxLine".
 */
export interface TaxLine {
  tax_code: Identifier;
  tax_rate: Decimal;
  taxable_amount: Amount;
  tax_amount: Amount;
  is_inclusive: boolean;
}
/**
 * The partner's one webhook endpoint, replacing any earlier one (URL and event types; the signing secret is kept). The URL must be https on a public address; the service checks the address itself after resolving the host name. Unknown fields are rejected with INVALID_PAYLOAD.
 *
 * This interface was referenced by `PosContract`'s JSON-Schema
 * via the `definition` "WebhookBody".
 */
export interface WebhookBody {
  url: string;
  /**
   * @minItems 1
   * @maxItems 3
   */
  event_types: ('reconciliation.completed' | 'reconciliation.changed' | 'batch.failed')[];
}
