import { odata, type TableClient, type TransactionAction } from '@azure/data-tables';
import type { ProductIds } from '../services/ports/ProductIds.js';
import { listEntityPages } from './listEntityPages.js';
import { encodeKeyPart } from './tableKey.js';
import { actionSize, transactionChunks } from './transactionChunks.js';

/**
 * A partner's distinct product_ids, one row each in the partner's partition. Product rows are
 * keyed by product and store, so a store-specific catalogue has a row per store; listing those for
 * the ids read products × stores rows (500 stores × 2,000 items: 1,000 pages). This partition holds
 * each id once, so its listing is a page per 1,000 distinct ids. A row is a key and an id of at
 * most 128 characters: it fits whatever the schema lets through, so nothing is checked at validation.
 */
export class ProductIdRepository implements ProductIds {
  constructor(private readonly table: TableClient) {}

  async add(partnerId: string, productIds: Iterable<string>): Promise<void> {
    const partitionKey = encodeKeyPart(partnerId);
    // One action per id: storage refuses a transaction that names a row twice.
    const actions = [...new Set(productIds)].map(
      // The id is kept as a property too: a long id's row key is a digest that cannot be decoded.
      (productId): TransactionAction => ['upsert', { partitionKey, rowKey: encodeKeyPart(productId), productId }, 'Replace'],
    );
    await Promise.all(transactionChunks(actions, actionSize).map((chunk) => this.table.submitTransaction(chunk)));
  }

  async list(partnerId: string): Promise<Set<string>> {
    const ids = new Set<string>();
    const query = { filter: odata`PartitionKey eq ${encodeKeyPart(partnerId)}`, select: ['productId'] };
    for await (const rows of listEntityPages(this.table, query)) {
      for (const row of rows) if (typeof row.productId === 'string') ids.add(row.productId);
    }
    return ids;
  }
}
