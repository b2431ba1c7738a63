import type { DailyClose } from '../src/domain/model/payloads.js';
import { benchBusinessDate } from './benchBusinessDate.js';
import { money, type DayTotals } from './tradeRecordGenerator.js';

/** The daily close of a generated store-day: its control totals are the ones the generator added up, so the day matches. */
export function dailyClose(batchId: string, storeId: string, batchCount: number, totals: DayTotals): DailyClose {
  return {
    batch_id: batchId,
    store_id: storeId,
    business_date: benchBusinessDate,
    batch_count: batchCount,
    trade_record_count: totals.tradeRecordCount,
    item_row_count: totals.itemRowCount,
    payment_row_count: totals.paymentRowCount,
    net_sales_amount: money(totals.netSalesCents),
    tax_amount: money(totals.taxCents),
    tip_amount: money(totals.tipCents),
    payment_total_amount: money(totals.paymentTotalCents),
    currency: 'USD',
    closed_at: '2026-03-02T03:55:00-05:00',
  };
}
