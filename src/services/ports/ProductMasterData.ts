import type { ModifierGroup, Product } from '../../domain/model/payloads.js';

/** Products (highest version wins, tie → later last_modified_at) and modifier groups (last received wins). */
export interface ProductMasterData {
  /** Returns the indexes in `products` that were stale. */
  upsertProducts(partnerId: string, products: readonly Product[]): Promise<Set<number>>;
  upsertModifierGroups(partnerId: string, groups: readonly ModifierGroup[]): Promise<void>;
  /** product_ids held for the partner, shared and store-specific alike. */
  listProductIds(partnerId: string): Promise<Set<string>>;
}
