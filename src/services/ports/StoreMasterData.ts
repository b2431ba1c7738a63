import type { Store } from '../../domain/model/payloads.js';
import type { RowProblem } from '../../storage/tableLimits.js';

/** Store master data per partner; the later last_modified_at wins, on a tie the copy received last. */
export interface StoreMasterData {
  get(partnerId: string, storeId: string): Promise<Store | undefined>;
  /** Every store the partner sent master data for, in no particular order. */
  list(partnerId: string): Promise<Store[]>;
  /** What the store would refuse in a store's row (checked before the first write); empty when it fits. */
  storeProblems(partnerId: string, store: Store): RowProblem[];
  /**
   * Returns the store_ids not written because a later copy is stored. A stored copy stamped further
   * after `now` than a push may stamp (`isStampTooFarAhead`: written before that bound existed) is
   * replaced by any copy, so that it can be corrected at all.
   */
  upsert(partnerId: string, stores: readonly Store[], now: Date): Promise<Set<string>>;
}
