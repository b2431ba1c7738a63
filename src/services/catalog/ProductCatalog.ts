import type { Clock } from '../ports/Clock.js';
import type { ProductMasterData } from '../ports/ProductMasterData.js';

/**
 * product_ids HQ holds per partner, for the UNKNOWN_PRODUCT warning. Listing a partner's products
 * on every push would cost more than the push, so the list is kept for a short while; a warning
 * that lags a product upload by seconds changes nothing (unknown products are not rejected).
 */
export class ProductCatalog {
  private readonly cache = new Map<string, { ids: Set<string>; loadedAt: number }>();

  constructor(
    private readonly products: ProductMasterData,
    private readonly clock: Clock,
    private readonly maxAgeMs = 30_000,
  ) {}

  async knownIds(partnerId: string): Promise<ReadonlySet<string>> {
    const now = this.clock().getTime();
    const cached = this.cache.get(partnerId);
    if (cached && now - cached.loadedAt < this.maxAgeMs) return cached.ids;
    const ids = await this.products.listProductIds(partnerId);
    this.cache.set(partnerId, { ids, loadedAt: now });
    return ids;
  }

  /** Called after a product upload applied by this instance. */
  forget(partnerId: string): void {
    this.cache.delete(partnerId);
  }
}
