/**
 * What the service stores disagrees with itself: a raw batch named by the trade-record index is
 * missing, is not a trade-record batch, or lacks a version the index names. Rebuilding later gives
 * the same answer, so the store-day's files are not written and the failure is not retried.
 */
export class ReportSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportSourceError';
  }
}
