import type { ProductBatch } from '../../domain/model/payloads.js';
import { checkProductBatch } from '../../domain/validation/checkProductBatch.js';
import type { ProductIds } from '../ports/ProductIds.js';
import type { ProductMasterData } from '../ports/ProductMasterData.js';
import type { ProductCatalog } from '../catalog/ProductCatalog.js';
import type { BatchProcessor } from './BatchProcessor.js';
import { rowProblemDetails } from './rowProblemDetails.js';
import { staleVersion } from './staleVersion.js';

/**
 * PUT /products (contract §4.6): products by version rule, modifier groups upserted by group_id,
 * and each product_id noted once in `productIds`, which pushes read for UNKNOWN_PRODUCT.
 */
export function productsProcessor(
  products: ProductMasterData,
  productIds: ProductIds,
  catalog: ProductCatalog,
): BatchProcessor<ProductBatch> {
  return {
    kind: 'products',
    collection: 'products',
    storesOf: (body) => body.products.flatMap((p, i) => (p.store_id ? [{ storeId: p.store_id, path: `/products/${i}/store_id` }] : [])),
    recordCount: (body) => body.products.length,
    check: (partnerId, body) => {
      const problems = checkProductBatch(body);
      // Each product and each modifier group is one row: it must fit before anything is written.
      body.products.forEach((product, i) =>
        problems.push(...rowProblemDetails(`/products/${i}`, products.productProblems(partnerId, product))),
      );
      body.modifier_groups?.forEach((group, i) => {
        problems.push(...rowProblemDetails(`/modifier_groups/${i}`, products.modifierGroupProblems(partnerId, group)));
      });
      return Promise.resolve({ problems });
    },

    async apply({ partnerId, body }) {
      const [unwritten] = await Promise.all([
        products.upsertProducts(partnerId, body.products),
        products.upsertModifierGroups(partnerId, body.modifier_groups ?? []),
      ]);
      // After the product rows, so an id is listed only once a row of it is stored. Every id of the
      // batch, a stale one too: a newer row of it is stored. A retry or the sweep notes them again.
      await productIds.add(
        partnerId,
        body.products.map((product) => product.product_id),
      );
      catalog.forget(partnerId);
      return body.products.flatMap((_, index) => staleVersion(unwritten, index, `products[${index}]`, 'product') ?? []);
    },
  };
}
