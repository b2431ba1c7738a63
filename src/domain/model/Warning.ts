/** Warning codes: outcomes that never reject a push (contract §2.2, DESIGN §6). */
export type WarningCode =
  | 'AMOUNT_MISMATCH'
  | 'UNKNOWN_PRODUCT'
  | 'UNMAPPED_TRANSACTION_TYPE'
  | 'UNKNOWN_PAYMENT_TYPE'
  | 'STALE_VERSION'
  | 'DAY_ALREADY_CLOSED'
  | 'BATCH_ID_REUSED'
  | 'STORE_NOT_UPLOADED';

/** A warning in a batch acknowledgement. `path` is `trade_records[<index>]` or the body's collection. */
export interface Warning {
  readonly code: WarningCode;
  readonly path: string;
  readonly message: string;
}
