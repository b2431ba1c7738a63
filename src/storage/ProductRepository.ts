import type { TableClient } from '@azure/data-tables';
import type { ModifierGroup, Product } from '../domain/model/payloads.js';
import { toChunkedProperties } from './chunkedJson.js';
import { decodeKeyPart, encodeKeyPart, tableKey } from './tableKey.js';
import { writeVersionedRows } from './writeVersionedRows.js';

/** Products (highest version wins) and modifier groups (last received wins) per partner. */
export class ProductRepository {
  constructor(
    private readonly products: TableClient,
    private readonly modifierGroups: TableClient,
  ) {}

  /** Upserts products under the version rule; returns the indexes in `products` that were stale. */
  async upsertProducts(partnerId: string, products: readonly Product[]): Promise<Set<number>> {
    const rows = products.map((product) => ({
      rowKey: tableKey(product.product_id, product.store_id ?? ''),
      version: product.version,
      last_modified_at: product.last_modified_at,
      properties: {
        version: product.version,
        lastModifiedAt: product.last_modified_at,
        productId: product.product_id,
        storeId: product.store_id ?? '',
        ...toChunkedProperties('body', product),
      },
    }));
    const { staleRowKeys } = await writeVersionedRows(this.products, encodeKeyPart(partnerId), rows);
    return new Set(rows.flatMap((row, i) => (staleRowKeys.has(row.rowKey) ? [i] : [])));
  }

  async upsertModifierGroups(partnerId: string, groups: readonly ModifierGroup[]): Promise<void> {
    for (let i = 0; i < groups.length; i += 100) {
      await this.modifierGroups.submitTransaction(
        groups
          .slice(i, i + 100)
          .map((group) => [
            'upsert',
            { partitionKey: encodeKeyPart(partnerId), rowKey: encodeKeyPart(group.group_id), ...toChunkedProperties('body', group) },
            'Replace',
          ]),
      );
    }
  }

  /** product_ids HQ holds for the partner (shared and store-specific alike). */
  async listProductIds(partnerId: string): Promise<Set<string>> {
    const ids = new Set<string>();
    // Rows written before productId was stored carry the id only in their RowKey.
    for await (const entity of this.products.listEntities<{ productId?: string }>({
      queryOptions: { filter: `PartitionKey eq '${encodeKeyPart(partnerId)}'`, select: ['RowKey', 'productId'] },
    })) {
      ids.add(entity.productId ?? decodeKeyPart((entity.rowKey ?? '').split('|')[0] ?? ''));
    }
    return ids;
  }
}
