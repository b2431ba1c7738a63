import type { ControlTotals } from '../domain/reconciliation/ControlTotals.js';
import type { StoreDayCounts } from './StoreDayReportBuilder.js';
import type { StoreDaySales } from './StoreDaySales.js';

/** The outcome of a store-day's reconciliation, as the report files record it. */
export interface ReconciledStoreDay {
  readonly partnerId: string;
  readonly storeId: string;
  readonly businessDate: string;
  readonly status: 'MATCHED' | 'MISMATCHED';
  /** The daily close's currency: the store's. */
  readonly currency: string;
  readonly expected: ControlTotals;
  readonly actual: ControlTotals;
  readonly differences: readonly string[];
  /** When the reconciliation ran (checked_at), UTC. */
  readonly reconciledAt: string;
  readonly closeBatchId: string;
}

/** One row of store_days: the outcome plus what the store-day's files hold. */
export interface StoreDayRow {
  readonly store_id: string;
  readonly currency: string;
  readonly status: 'MATCHED' | 'MISMATCHED';
  readonly reconciled_at: string;
  readonly close_batch_id: string;
  readonly expected: ControlTotals;
  readonly actual: ControlTotals;
  readonly differences: readonly string[];
  readonly counts: StoreDayCounts;
  /** Totals of the files' transactions per currency and standard type, and of those held back per code. */
  readonly sales: StoreDaySales;
  /** When the files were built, UTC. */
  readonly report_generated_at: string;
}

export function storeDayRow(day: ReconciledStoreDay, counts: StoreDayCounts, sales: StoreDaySales, generatedAt: string): StoreDayRow {
  return {
    store_id: day.storeId,
    currency: day.currency,
    status: day.status,
    reconciled_at: day.reconciledAt,
    close_batch_id: day.closeBatchId,
    expected: day.expected,
    actual: day.actual,
    differences: [...day.differences],
    counts,
    sales,
    report_generated_at: generatedAt,
  };
}
