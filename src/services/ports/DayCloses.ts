import type { StoredClose } from '../../storage/DayCloseRepository.js';
import type { RowReadAhead } from '../../storage/RowReadAhead.js';

/** The daily close in effect per (partner, store, business date): the one received last. */
export interface DayCloses {
  get(partnerId: string, storeId: string, businessDate: string): Promise<StoredClose | undefined>;
  /** Stores the close unless one that comes after it is in effect; returns whether this one is in effect. */
  putIfLatest(partnerId: string, stored: StoredClose, readAhead?: RowReadAhead): Promise<boolean>;
  /** Starts reading the close row for a `putIfLatest` soon after (stores where a read is a round trip). */
  readAhead?(partnerId: string, storeId: string, businessDate: string): RowReadAhead;
}
