import type { DecimalString } from '../model/payloads.js';

/**
 * The seven figures of a store-day that the daily close declares (`expected`) and HQ recomputes
 * (`actual`), contract §2.11 and §2.12.
 */
export interface ControlTotals {
  readonly trade_record_count: number;
  readonly item_row_count: number;
  readonly payment_row_count: number;
  readonly net_sales_amount: DecimalString;
  readonly tax_amount: DecimalString;
  readonly tip_amount: DecimalString;
  readonly payment_total_amount: DecimalString;
}

/** Count fields, compared exactly. */
export const COUNT_FIELDS = ['trade_record_count', 'item_row_count', 'payment_row_count'] as const;

/** Amount fields, compared within one minor unit of the currency. */
export const AMOUNT_FIELDS = ['net_sales_amount', 'tax_amount', 'tip_amount', 'payment_total_amount'] as const;

/** Every field in the contract's order, which is also the order of `differences`. */
export const CONTROL_TOTAL_FIELDS = [...COUNT_FIELDS, ...AMOUNT_FIELDS] as const;

export type ControlTotalField = (typeof CONTROL_TOTAL_FIELDS)[number];
