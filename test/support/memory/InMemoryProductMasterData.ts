import { isDeepStrictEqual } from 'node:util';
import type { ModifierGroup, Product } from '../../../src/domain/model/payloads.js';
import { compareVersions } from '../../../src/domain/reconciliation/compareVersions.js';
import type { ProductMasterData } from '../../../src/services/ports/ProductMasterData.js';
import type { UnwrittenProducts } from '../../../src/storage/ProductRepository.js';
import type { RowProblem } from '../../../src/storage/tableLimits.js';

/** Products and modifier groups in maps, for unit tests of services. */
export class InMemoryProductMasterData implements ProductMasterData {
  private readonly products = new Map<string, Product>();
  private readonly groups = new Map<string, ModifierGroup>();

  /** A map holds any row: nothing to refuse. */
  productProblems(): RowProblem[] {
    return [];
  }

  modifierGroupProblems(): RowProblem[] {
    return [];
  }

  upsertProducts(partnerId: string, products: readonly Product[]): Promise<UnwrittenProducts> {
    const stale = new Set<number>();
    const conflicting = new Set<number>();
    products.forEach((product, i) => {
      const key = JSON.stringify([partnerId, product.product_id, product.store_id ?? '']);
      const current = this.products.get(key);
      const order = current ? compareVersions(product, current) : 1;
      if (order > 0) this.products.set(key, product);
      else if (order < 0) stale.add(i);
      else if (!isDeepStrictEqual({ ...product, last_modified_at: undefined }, { ...current, last_modified_at: undefined }))
        conflicting.add(i);
    });
    return Promise.resolve({ stale, conflicting });
  }

  listProducts(partnerId: string): Promise<Product[]> {
    return Promise.resolve(
      [...this.products].filter(([key]) => (JSON.parse(key) as string[])[0] === partnerId).map(([, product]) => product),
    );
  }

  upsertModifierGroups(partnerId: string, groups: readonly ModifierGroup[]): Promise<void> {
    for (const group of groups) this.groups.set(JSON.stringify([partnerId, group.group_id]), group);
    return Promise.resolve();
  }
}
