/**
 * Who rewrites the store_days file of a partner's business date, and how far the rewrites have
 * got: one row per partner and date, written only against the ETag it was read with.
 */
export interface StoreDaysWriterState {
  /** The writer holding the turn to rewrite the file, and until when (ISO 8601 UTC); absent when free. */
  readonly leaseId?: string;
  readonly leaseUntil?: string;
  /** A row was written since the round under way started listing: the holder owes one more round. */
  readonly dirty: boolean;
  /** Rounds started (each lists the rows after it is counted here), and the highest one finished. */
  readonly started: number;
  readonly finished: number;
}

export interface StoreDaysWriters {
  read(partnerId: string, businessDate: string): Promise<(StoreDaysWriterState & { readonly etag: string }) | undefined>;
  /**
   * Writes the state if the row is still as read (`etag`; undefined: still absent): the row's new
   * ETag, or undefined when it changed meanwhile.
   */
  write(partnerId: string, businessDate: string, state: StoreDaysWriterState, etag: string | undefined): Promise<string | undefined>;
}
