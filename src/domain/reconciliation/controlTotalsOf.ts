import type { DailyClose } from '../model/payloads.js';
import type { ControlTotals } from './ControlTotals.js';

/** The figures a daily close declares, without its other fields. */
export function controlTotalsOf(close: DailyClose): ControlTotals {
  return {
    trade_record_count: close.trade_record_count,
    item_row_count: close.item_row_count,
    payment_row_count: close.payment_row_count,
    net_sales_amount: close.net_sales_amount,
    tax_amount: close.tax_amount,
    tip_amount: close.tip_amount,
    payment_total_amount: close.payment_total_amount,
  };
}
