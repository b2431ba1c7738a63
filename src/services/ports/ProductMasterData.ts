import type { ModifierGroup, Product } from '../../domain/model/payloads.js';
import type { UnwrittenProducts } from '../../storage/ProductRepository.js';
import type { RowProblem } from '../../storage/tableLimits.js';

/**
 * Products (highest version wins, tie → later last_modified_at) and modifier groups (last received
 * wins). Which product_ids exist is asked of `ProductIds`, not of these rows.
 */
export interface ProductMasterData {
  /** What the store would refuse in a product's row (checked before the first write); empty when it fits. */
  productProblems(partnerId: string, product: Product): RowProblem[];
  /** What the store would refuse in a modifier group's row; empty when it fits. */
  modifierGroupProblems(partnerId: string, group: ModifierGroup): RowProblem[];
  upsertProducts(partnerId: string, products: readonly Product[]): Promise<UnwrittenProducts>;
  /** Every product of the partner as stored (its highest version), shared and store-specific, in no particular order. */
  listProducts(partnerId: string): Promise<Product[]>;
  upsertModifierGroups(partnerId: string, groups: readonly ModifierGroup[]): Promise<void>;
}
