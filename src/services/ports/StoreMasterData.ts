import type { Store } from '../../domain/model/payloads.js';

/** Store master data per partner; the later last_modified_at wins. */
export interface StoreMasterData {
  get(partnerId: string, storeId: string): Promise<Store | undefined>;
  /** Returns the store_ids not written because a later copy is stored. */
  upsert(partnerId: string, stores: readonly Store[]): Promise<Set<string>>;
}
