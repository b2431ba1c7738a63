import type { StoredClose } from '../../storage/DayCloseRepository.js';

/** The daily close in effect per (partner, store, business date): the one received last. */
export interface DayCloses {
  get(partnerId: string, storeId: string, businessDate: string): Promise<StoredClose | undefined>;
  /** Stores the close unless one received later is in effect; returns whether this one is in effect. */
  putIfLatest(partnerId: string, stored: StoredClose): Promise<boolean>;
}
