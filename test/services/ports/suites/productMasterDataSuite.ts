import { expect, it } from 'vitest';
import type { Product } from '../../../../src/domain/model/payloads.js';
import type { ProductMasterData } from '../../../../src/services/ports/ProductMasterData.js';
import { buildProductBatch } from '../../../fixtures/masterDataFixtures.js';
import { freshPartnerId } from './freshIds.js';

function product(overrides: Partial<Product>): Product {
  const [first] = buildProductBatch().products;
  if (!first) throw new Error('the product fixture is empty');
  return { ...first, ...overrides };
}

/** What every ProductMasterData implementation does. */
export function productMasterDataSuite(make: () => Promise<ProductMasterData>): void {
  it('keeps the highest version, then the later last_modified_at, and names the stale indexes', async () => {
    const products = await make();
    const partnerId = freshPartnerId();
    const v2 = product({ product_id: 'P/1', version: 2, last_modified_at: '2026-03-01T10:00:00Z' });
    expect(await products.upsertProducts(partnerId, [v2])).toEqual({ stale: new Set(), conflicting: new Set() });
    const stale = await products.upsertProducts(partnerId, [
      product({ product_id: 'P-2', version: 1 }),
      product({ product_id: 'P/1', version: 1, last_modified_at: '2026-03-02T00:00:00Z' }),
      product({ product_id: 'P/1', store_id: 'S-1', version: 1 }),
    ]);
    expect(stale).toEqual({ stale: new Set([1]), conflicting: new Set() });
    const older = await products.upsertProducts(partnerId, [{ ...v2, last_modified_at: '2026-03-01T09:00:00Z' }]);
    expect(older).toEqual({ stale: new Set([0]), conflicting: new Set() });
    const later = await products.upsertProducts(partnerId, [{ ...v2, last_modified_at: '2026-03-01T11:00:00Z' }]);
    expect(later).toEqual({ stale: new Set(), conflicting: new Set() });
  });

  it('keeps the stored product on an equal stamp, naming a copy with other content as conflicting', async () => {
    const products = await make();
    const partnerId = freshPartnerId();
    const stored = product({ product_id: 'P-1', version: 3, last_modified_at: '2026-03-01T10:00:00Z' });
    await products.upsertProducts(partnerId, [stored]);
    // Replays: the same product with its fields in another order, and the same instant in another offset.
    const reordered = Object.fromEntries(Object.entries(stored).reverse()) as unknown as Product;
    const otherOffset = { ...stored, last_modified_at: '2026-03-01T19:00:00+09:00' };
    const repriced = { ...stored, unit_price: '10.49' };
    const none = { stale: new Set(), conflicting: new Set() };
    expect(await products.upsertProducts(partnerId, [reordered])).toEqual(none);
    expect(await products.upsertProducts(partnerId, [otherOffset])).toEqual(none);
    expect(await products.upsertProducts(partnerId, [product({ product_id: 'P-2' }), repriced])).toEqual({
      stale: new Set(),
      conflicting: new Set([1]),
    });
  });

  it("lists the partner's products at their stored versions, shared and store-specific, and no other partner's", async () => {
    const products = await make();
    const [partnerId, other] = [freshPartnerId(), freshPartnerId()];
    await products.upsertProducts(partnerId, [
      product({ product_id: 'P/1', version: 1 }),
      product({ product_id: 'P/1', store_id: 'S-1', version: 1 }),
    ]);
    await products.upsertProducts(partnerId, [product({ product_id: 'P/1', version: 2, last_modified_at: '2027-01-01T00:00:00Z' })]);
    await products.upsertProducts(other, [product({ product_id: 'P-9', version: 1 })]);
    const listed = await products.listProducts(partnerId);
    expect(listed.map((p) => [p.product_id, p.store_id ?? null, p.version]).sort()).toEqual([
      ['P/1', null, 2],
      ['P/1', 'S-1', 1],
    ]);
    expect(await products.listProducts(freshPartnerId())).toEqual([]);
  });
}
