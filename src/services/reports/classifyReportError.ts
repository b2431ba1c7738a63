import { ReportDataError } from '../../reports/ReportDataError.js';
import { ReportSourceError } from '../../reports/ReportSourceError.js';

/**
 * Stable codes of report failures, as the logs show them:
 * - REPORT_DATA_UNWRITABLE: a value cannot be written exactly (permanent; see the README's limits);
 * - REPORT_SOURCE_INCONSISTENT: stored data disagrees with itself (permanent);
 * - REPORT_STORAGE_FAILED: storage failed or timed out (transient, retried a bounded number of times).
 */
export type ReportFailureCode = 'REPORT_DATA_UNWRITABLE' | 'REPORT_SOURCE_INCONSISTENT' | 'REPORT_STORAGE_FAILED';

export interface ReportFailure {
  readonly code: ReportFailureCode;
  readonly permanent: boolean;
  /** The first line of the error: names columns and positions, never values. */
  readonly message: string;
}

export function classifyReportError(error: unknown): ReportFailure {
  const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : 'unknown error';
  if (error instanceof ReportDataError) return { code: 'REPORT_DATA_UNWRITABLE', permanent: true, message };
  if (error instanceof ReportSourceError) return { code: 'REPORT_SOURCE_INCONSISTENT', permanent: true, message };
  return { code: 'REPORT_STORAGE_FAILED', permanent: false, message };
}
