import type { ProductBatch } from '../../domain/model/payloads.js';
import type { Warning } from '../../domain/model/Warning.js';
import { checkProductBatch } from '../../domain/validation/checkProductBatch.js';
import type { ProductMasterData } from '../ports/ProductMasterData.js';
import type { ProductCatalog } from '../catalog/ProductCatalog.js';
import type { BatchProcessor } from './BatchProcessor.js';
import { rowProblemDetails } from './rowProblemDetails.js';

/** PUT /products (contract §4.6): products by version rule, modifier groups upserted by group_id. */
export function productsProcessor(products: ProductMasterData, catalog: ProductCatalog): BatchProcessor<ProductBatch> {
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
      catalog.forget(partnerId);
      const warnings: Warning[] = [];
      body.products.forEach((_, index) => {
        const path = `products[${index}]`;
        if (unwritten.stale.has(index)) {
          warnings.push({
            code: 'STALE_VERSION',
            path,
            message: 'A newer version of this product is already stored; this one was ignored.',
          });
        } else if (unwritten.conflicting.has(index)) {
          warnings.push({
            code: 'STALE_VERSION',
            path,
            message:
              'This product is already stored with the same version and last_modified_at but other content; this copy was ignored. Send a change with version + 1.',
          });
        }
      });
      return warnings;
    },
  };
}
