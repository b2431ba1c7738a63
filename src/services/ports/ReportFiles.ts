import type { StoreDayDataset } from '../../reports/reportDatasets.js';
import type { StoreDayWrite } from '../../storage/ReportStore.js';

/**
 * A report file's bytes: whole, or the pieces it was assembled from, in order (written one after
 * another without being joined into one buffer first).
 */
export type ReportFileBytes = Uint8Array | readonly Uint8Array[];

/** A store-day's file of each dataset; undefined: the dataset has no rows, and no file. */
export type StoreDayFiles = Readonly<Record<StoreDayDataset, ReportFileBytes | undefined>>;

/** The report files HQ reads: each store-day's dataset files and each partner's store_days file per date. */
export interface ReportFiles {
  /**
   * Replaces a store-day's files (a dataset without a file has its old file removed), each whole.
   * Writes are ordered by `stamp` (the instant their build started): 'superseded', and nothing
   * written, when a build with a later stamp has written the store-day. `files` may still be being
   * built (the store-day is made ready to write meanwhile). `onWritten` runs once the files are
   * written and before the write returns; the write fails if it does.
   */
  writeStoreDay(
    partnerId: string,
    storeId: string,
    businessDate: string,
    files: StoreDayFiles | Promise<StoreDayFiles>,
    stamp: string,
    onWritten?: () => Promise<void>,
  ): Promise<StoreDayWrite>;
  /**
   * Rewrites the store_days file of a partner's date from `build` (undefined: leave it as it is).
   * Writers racing each other redo their build, so the file last written was built after every
   * earlier write.
   */
  writeStoreDays(partnerId: string, businessDate: string, build: () => Promise<Uint8Array | undefined>): Promise<void>;
}
