import { CONTROL_TOTAL_FIELDS, COUNT_FIELDS } from '../domain/reconciliation/ControlTotals.js';
import { epochDay } from './epochDay.js';
import type { ParquetWriterModule } from './loadParquetWriter.js';
import { ParquetFileBuilder, type ReportValue } from './ParquetFileBuilder.js';
import { AMOUNT_PRECISION, AMOUNT_SCALE, reportColumns } from './reportColumns.js';
import { ReportDataError } from './ReportDataError.js';
import type { StoreDayRow } from './ReconciledStoreDay.js';
import { timestampMicros } from './timestampMicros.js';
import { toScaledInteger } from './toScaledInteger.js';
import { compareCodeUnits } from '../domain/compareCodeUnits.js';

/**
 * The store_days file of one partner and business date: one row per store reconciled that day,
 * ordered by store_id. Undefined when there is no row.
 */
export function encodeStoreDays(
  module: ParquetWriterModule,
  partnerId: string,
  businessDate: string,
  rows: readonly StoreDayRow[],
): Uint8Array | undefined {
  const day = epochDay(businessDate);
  if (day === undefined) throw new ReportDataError('business_date is not a calendar date');
  const file = new ParquetFileBuilder(module, { dataset: 'store_days', columns: reportColumns.store_days });
  const sorted = [...rows].sort((a, b) => compareCodeUnits(a.store_id, b.store_id));
  for (const [position, row] of sorted.entries()) {
    const where = `the store-day of store #${position}`;
    const instant = (text: string, column: string): bigint => {
      const value = timestampMicros(text);
      if (value === undefined) throw new ReportDataError(`${column} of ${where} is not an ISO 8601 date-time`);
      return value.utc;
    };
    const values: Record<string, ReportValue> = {
      partner_id: partnerId,
      business_date: day,
      store_id: row.store_id,
      currency: row.currency,
      status: row.status,
      reconciled_at: instant(row.reconciled_at, 'reconciled_at'),
      close_batch_id: row.close_batch_id,
      differences: row.differences.join(','),
      sales_transaction_count: row.counts.sales_transactions,
      sales_line_count: row.counts.sales_lines,
      sales_payment_count: row.counts.sales_payments,
      unmapped_transaction_count: row.counts.unmapped_transactions,
      report_generated_at: instant(row.report_generated_at, 'report_generated_at'),
      report_files_id: row.report_files_id ?? null,
    };
    Object.assign(values, controlTotalValues(row, where));
    file.append(values);
  }
  return file.finish();
}

/**
 * The expected_* and actual_* columns of a store-day's row. Throws ReportDataError when a total
 * does not fit the money type: a day's sum may, though each of its amounts fits.
 */
export function controlTotalValues(row: Pick<StoreDayRow, 'expected' | 'actual'>, where: string): Record<string, ReportValue> {
  const values: Record<string, ReportValue> = {};
  for (const side of ['expected', 'actual'] as const) {
    for (const field of CONTROL_TOTAL_FIELDS) {
      const column = `${side}_${field}`;
      const value = row[side][field];
      if ((COUNT_FIELDS as readonly string[]).includes(field)) {
        values[column] = value;
      } else {
        const scaled = toScaledInteger(String(value), AMOUNT_SCALE, AMOUNT_PRECISION);
        if (scaled === undefined)
          throw new ReportDataError(`${column} of ${where} does not fit DECIMAL(${AMOUNT_PRECISION}, ${AMOUNT_SCALE})`);
        values[column] = scaled;
      }
    }
  }
  return values;
}
