import type { ControlTotalField } from './ControlTotals.js';

/** What each control total is called where people read it: the console, the report columns' docs. */
export const controlTotalLabels: Readonly<Record<ControlTotalField, string>> = {
  trade_record_count: 'Transactions',
  item_row_count: 'Item rows',
  payment_row_count: 'Payment rows',
  net_sales_amount: 'Net sales',
  tax_amount: 'Tax',
  tip_amount: 'Tips',
  payment_total_amount: 'Payment total',
};
