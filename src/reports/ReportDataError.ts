/**
 * A value of a store-day cannot be written to the report files as it is: an amount beyond the
 * column's range or with more decimal places than its scale, a timestamp or date the files cannot
 * hold, or an id whose encoded path would be too long for a blob name. Nothing is rounded or cut to
 * make it fit, so the store-day's files are not written; the message names the dataset, column and
 * transaction, never the value.
 */
export class ReportDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportDataError';
  }
}
