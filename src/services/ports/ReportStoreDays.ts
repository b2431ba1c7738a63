import type { StoreDayRow } from '../../reports/ReconciledStoreDay.js';
import type { RowReadAhead } from '../../storage/RowReadAhead.js';

/** The row of each reported store-day (status, counts, sales totals), by partner and business date. */
export interface ReportStoreDays {
  /**
   * Stores the row unless one from a later build (a greater `stamp`, see buildStamp) is there;
   * returns whether it wrote. `readAhead`: the row as read earlier, a first guess checked by the write.
   */
  putIfNewer(partnerId: string, businessDate: string, row: StoreDayRow, stamp: string, readAhead?: RowReadAhead): Promise<boolean>;
  /** Starts reading a store-day's row for a `putIfNewer` soon after (stores where a read is a round trip). */
  readAhead?(partnerId: string, businessDate: string, storeId: string): RowReadAhead;
  /** The partner's rows with their dates, from `from` to `to` inclusive (either may be absent), in date order. */
  listRange(partnerId: string, from?: string, to?: string): AsyncIterable<{ businessDate: string; row: StoreDayRow }>;
  /** One store-day's row; undefined when the day has none (not reported yet). */
  get(partnerId: string, businessDate: string, storeId: string): Promise<StoreDayRow | undefined>;
  /** Every row of the partner's business date. */
  list(partnerId: string, businessDate: string): Promise<StoreDayRow[]>;
}
