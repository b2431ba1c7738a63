/**
 * Report fragments, one per (partner, batch id, case-insensitive): a batch's transactions already
 * converted to report rows. A cache of the raw batch: a missing one is rebuilt from it.
 */
export interface ReportFragments {
  /** The fragment's bytes; undefined when none is staged. */
  get(partnerId: string, batchId: string): Promise<Buffer | undefined>;
  exists(partnerId: string, batchId: string): Promise<boolean>;
  /** Replaces the fragment whole: a reader sees the old bytes or the new ones. */
  put(partnerId: string, batchId: string, bytes: Uint8Array): Promise<void>;
}
