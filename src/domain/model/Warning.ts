/**
 * Warning codes: outcomes that never reject a push (contract §2.2, DESIGN §6). The response
 * schema's description and the README's list name the same codes (a test holds them to this list).
 */
export const warningCodes = [
  'AMOUNT_MISMATCH',
  'UNKNOWN_PRODUCT',
  'UNMAPPED_TRANSACTION_TYPE',
  'UNKNOWN_PAYMENT_TYPE',
  'STALE_VERSION',
  'DAY_ALREADY_CLOSED',
  'BATCH_ID_REUSED',
  'STORE_NOT_UPLOADED',
] as const;

export type WarningCode = (typeof warningCodes)[number];

/**
 * A warning in a batch acknowledgement. `path` names what it is about: a record of the body
 * (`trade_records[<index>]`, `stores[<index>]`, `products[<index>]`) or one of its fields
 * (`business_date`, `batch_id`, `store_id`).
 */
export interface Warning {
  readonly code: WarningCode;
  readonly path: string;
  readonly message: string;
}
