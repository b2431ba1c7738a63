import { isDeepStrictEqual } from 'node:util';
import { odata, type TableClient, type TransactionAction } from '@azure/data-tables';
import type { ModifierGroup, Product } from '../domain/model/payloads.js';
import { fromChunkedProperties, toChunkedProperties } from './chunkedJson.js';
import { entityProblems, type RowProblem } from './tableLimits.js';
import { actionSize, transactionChunks } from './transactionChunks.js';
import { encodeKeyPart, tableKey } from './tableKey.js';
import { writeVersionedRows, type Unwritten } from './writeVersionedRows.js';

/** The indexes of a batch's products that were not written. */
export type UnwrittenProducts = Unwritten<number>;

/** Products (highest version wins) and modifier groups (last received wins) per partner. */
export class ProductRepository {
  constructor(
    private readonly products: TableClient,
    private readonly modifierGroups: TableClient,
  ) {}

  /** What Table Storage would refuse in a product's row (checked at validation); empty when it fits. */
  productProblems(partnerId: string, product: Product): RowProblem[] {
    return entityProblems({ partitionKey: encodeKeyPart(partnerId), rowKey: productRowKey(product), ...productProperties(product) });
  }

  /** What Table Storage would refuse in a modifier group's row (checked at validation); empty when it fits. */
  modifierGroupProblems(partnerId: string, group: ModifierGroup): RowProblem[] {
    return entityProblems(modifierGroupEntity(partnerId, group));
  }

  /** Upserts products under the version rule; returns the indexes in `products` that were not written, and why. */
  async upsertProducts(partnerId: string, products: readonly Product[]): Promise<UnwrittenProducts> {
    const rows = products.map((product) => ({
      rowKey: productRowKey(product),
      version: product.version,
      last_modified_at: product.last_modified_at,
      properties: productProperties(product),
    }));
    const written = await writeVersionedRows(this.products, encodeKeyPart(partnerId), rows, [], { sameContent: sameProduct });
    const indexesOf = (rowKeys: ReadonlySet<string>) => new Set(rows.flatMap((row, i) => (rowKeys.has(row.rowKey) ? [i] : [])));
    return { stale: indexesOf(written.staleRowKeys), conflicting: indexesOf(written.conflictingRowKeys) };
  }

  async listProducts(partnerId: string): Promise<Product[]> {
    const products: Product[] = [];
    for await (const entity of this.products.listEntities({
      queryOptions: { filter: odata`PartitionKey eq ${encodeKeyPart(partnerId)}` },
    })) {
      products.push(fromChunkedProperties('body', entity) as Product);
    }
    return products;
  }

  async upsertModifierGroups(partnerId: string, groups: readonly ModifierGroup[]): Promise<void> {
    const actions = groups.map((group): TransactionAction => ['upsert', modifierGroupEntity(partnerId, group), 'Replace']);
    for (const chunk of transactionChunks(actions, actionSize)) await this.modifierGroups.submitTransaction(chunk);
  }
}

/**
 * Whether two rows of one product under the same stamp describe it alike: their bodies, whatever
 * the order of their fields, leaving out `last_modified_at` (the same instant may be written with
 * another offset).
 */
function sameProduct(written: Readonly<Record<string, unknown>>, stored: Readonly<Record<string, unknown>>): boolean {
  const withoutStamp = (row: Readonly<Record<string, unknown>>): unknown => {
    const body = fromChunkedProperties('body', row) as Record<string, unknown> | undefined;
    return body === undefined ? undefined : { ...body, last_modified_at: undefined };
  };
  return isDeepStrictEqual(withoutStamp(written), withoutStamp(stored));
}

function productRowKey(product: Product): string {
  return tableKey(product.product_id, product.store_id ?? '');
}

function productProperties(product: Product): Record<string, unknown> {
  return {
    version: product.version,
    lastModifiedAt: product.last_modified_at,
    productId: product.product_id,
    storeId: product.store_id ?? '',
    ...toChunkedProperties('body', product),
  };
}

function modifierGroupEntity(partnerId: string, group: ModifierGroup): { partitionKey: string; rowKey: string } & Record<string, unknown> {
  return { partitionKey: encodeKeyPart(partnerId), rowKey: encodeKeyPart(group.group_id), ...toChunkedProperties('body', group) };
}
