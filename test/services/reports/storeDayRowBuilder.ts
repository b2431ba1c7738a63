import { buildStamp } from '../../../src/reports/buildStamp.js';
import type { StoreDayRow } from '../../../src/reports/ReconciledStoreDay.js';
import type { ReportStoreDays } from '../../../src/services/ports/ReportStoreDays.js';
import type { RowReadAhead } from '../../../src/storage/RowReadAhead.js';
import type { SalesTotals, UnmappedTotals } from '../../../src/reports/StoreDaySales.js';

const totals = {
  trade_record_count: 0,
  item_row_count: 0,
  payment_row_count: 0,
  net_sales_amount: '0.00',
  tax_amount: '0.00',
  tip_amount: '0.00',
  payment_total_amount: '0.00',
};

/** A store_days row holding the given totals (amounts in ten-thousandths, as stored); the rest is filler. */
export function storeDayRowWith(storeId: string, sales: readonly SalesTotals[], unmapped: readonly UnmappedTotals[] = []): StoreDayRow {
  return {
    store_id: storeId,
    currency: sales[0]?.currency ?? unmapped[0]?.currency ?? 'USD',
    status: 'MATCHED',
    reconciled_at: '2026-03-02T01:00:00.000Z',
    close_batch_id: 'close-1',
    expected: totals,
    actual: totals,
    differences: [],
    counts: { sales_transactions: 0, sales_lines: 0, sales_payments: 0, unmapped_transactions: 0 },
    sales: { sales, unmapped },
    report_generated_at: '2026-03-02T01:00:00.000Z',
  };
}

/** One standard type's totals in one currency (amounts in ten-thousandths). */
export function salesTotals(
  currency: string,
  standardType: string,
  amounts: { count: number; net: string; tax?: string; tip?: string; isRevenue?: boolean },
): SalesTotals {
  return {
    currency,
    standard_type: standardType,
    is_revenue: amounts.isRevenue ?? true,
    transaction_count: amounts.count,
    net_sales: amounts.net,
    tax_amount: amounts.tax ?? '0',
    tip_amount: amounts.tip ?? '0',
    total_amount: amounts.net,
    payment_total_amount: amounts.net,
  };
}

/** One held-back code's totals in one currency (amounts in ten-thousandths). */
export function unmappedTotals(
  currency: string,
  code: string,
  amounts: { count: number; net: string; tax?: string; tip?: string },
): UnmappedTotals {
  return {
    source_transaction_type: code,
    currency,
    transaction_count: amounts.count,
    net_sales: amounts.net,
    tax_amount: amounts.tax ?? '0',
    tip_amount: amounts.tip ?? '0',
    total_amount: amounts.net,
  };
}

/** Puts a row as a build of the day's first run that started at the row's `report_generated_at`. */
export function putRow(
  storeDays: Pick<ReportStoreDays, 'putIfNewer'>,
  partnerId: string,
  businessDate: string,
  row: StoreDayRow,
  readAhead?: RowReadAhead,
): Promise<boolean> {
  return storeDays.putIfNewer(partnerId, businessDate, row, buildStamp(1, row.report_generated_at), readAhead);
}
