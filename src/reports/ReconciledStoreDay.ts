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
  /** The number of the run whose result this is; 0 for a result stored before runs were numbered. */
  readonly runNumber: number;
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
  /** The id every file of the store-day's set carries in its footer (storeDayFilesId); absent in rows built before it. */
  readonly report_files_id?: string;
}

/** What a build of the store-day's files adds to its outcome in the row. */
export interface StoreDayBuild {
  readonly counts: StoreDayCounts;
  readonly sales: StoreDaySales;
  /** When the build started, UTC. */
  readonly generatedAt: string;
  readonly filesId: string;
}

/**
 * Most held-back totals (code × currency) a store-day's row keeps: the row is one table entity, and
 * a day whose every transaction has a code of its own would outgrow it. Those with the most
 * transactions are kept; unmapped_transactions holds every transaction all the same.
 * @internal read by the tests of the limit instead of restating it.
 */
export const maxUnmappedTotalsPerRow = 1_000;

export function storeDayRow(day: ReconciledStoreDay, { counts, sales, generatedAt, filesId }: StoreDayBuild): StoreDayRow {
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
    sales: { sales: sales.sales, unmapped: mostHeldBack(sales.unmapped) },
    report_generated_at: generatedAt,
    report_files_id: filesId,
  };
}

/** The {@link maxUnmappedTotalsPerRow} totals with the most transactions, in their order. */
function mostHeldBack(unmapped: StoreDaySales['unmapped']): StoreDaySales['unmapped'] {
  if (unmapped.length <= maxUnmappedTotalsPerRow) return unmapped;
  const kept = new Set(
    unmapped
      .map((totals, index) => ({ count: totals.transaction_count, index }))
      .sort((a, b) => b.count - a.count || a.index - b.index)
      .slice(0, maxUnmappedTotalsPerRow)
      .map(({ index }) => index),
  );
  return unmapped.filter((_, index) => kept.has(index));
}
