import { randomUUID } from 'node:crypto';
import type { PipelinePolicy, PipelineRequest, PipelineResponse, SendRequest } from '@azure/core-rest-pipeline';
import { odata, type TableClient } from '@azure/data-tables';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../../src/domain/model/payloads.js';
import { ProductCatalog } from '../../../src/services/catalog/ProductCatalog.js';
import { productsProcessor } from '../../../src/services/push/productsProcessor.js';
import { ProductIdRepository } from '../../../src/storage/ProductIdRepository.js';
import { ProductRepository } from '../../../src/storage/ProductRepository.js';
import { listEntityPages } from '../../../src/storage/listEntityPages.js';
import { encodeKeyPart } from '../../../src/storage/tableKey.js';
import { buildProductBatch } from '../../fixtures/masterDataFixtures.js';
import { azuriteTable } from '../../support/azuriteClients.js';
import { testClock } from '../../support/testClock.js';

/** Counts the reads a table client sends, and the rows their answers hold. */
class ReadCounter implements PipelinePolicy {
  readonly name = 'read-counter';
  requests = 0;
  rows = 0;

  async sendRequest(request: PipelineRequest, next: SendRequest): Promise<PipelineResponse> {
    const response = await next(request);
    if (request.method === 'GET') {
      this.requests++;
      const body = ((response as { parsedBody?: unknown }).parsedBody ?? JSON.parse(response.bodyAsText ?? '{}')) as { value?: unknown[] };
      this.rows += body.value?.length ?? 0;
    }
    return response;
  }
}

const uniqueName = (): string => `t${randomUUID().replace(/-/g, '').slice(0, 20)}`;

async function countedTable(): Promise<{ table: TableClient; reads: ReadCounter }> {
  const table = await azuriteTable(uniqueName());
  const reads = new ReadCounter();
  table.pipeline.addPolicy(reads);
  return { table, reads };
}

let products: { table: TableClient; reads: ReadCounter };
let registry: { table: TableClient; reads: ReadCounter };
let groups: TableClient;

beforeAll(async () => {
  [products, registry, groups] = await Promise.all([countedTable(), countedTable(), azuriteTable(uniqueName())]);
});

const [template] = buildProductBatch().products;

/** One product_id carried by `stores` stores, one row each. */
function storeSpecific(productId: string, stores: number): Product[] {
  if (!template) throw new Error('the product fixture is empty');
  return Array.from({ length: stores }, (_, i) => ({ ...template, product_id: productId, store_id: `S-${String(i).padStart(4, '0')}` }));
}

describe('productsProcessor with the product id registry (Azurite)', () => {
  it('a push loads the distinct product_ids of a store-specific catalogue, not its product × store rows, once for concurrent pushes', async () => {
    const clock = testClock();
    const catalog = new ProductCatalog(new ProductIdRepository(registry.table), clock);
    const repository = new ProductRepository(products.table, groups);
    const processor = productsProcessor(repository, new ProductIdRepository(registry.table), catalog);
    const partnerId = `p/${randomUUID().slice(0, 8)}`;
    // 3 product_ids × 400 stores: 1,200 product rows (two pages of them), in uploads of 400.
    for (const id of ['P-BURGER', 'P-FRIES', 'P-COLA']) {
      await processor.apply({
        partnerId,
        body: { batch_id: randomUUID(), products: storeSpecific(id, 400) },
        receivedAt: clock().toISOString(),
      });
    }
    // An upload of the same rows again (a retry) leaves one registry row per id.
    await processor.apply({
      partnerId,
      body: { batch_id: randomUUID(), products: storeSpecific('P-COLA', 400) },
      receivedAt: clock().toISOString(),
    });

    products.reads.requests = products.reads.rows = 0;
    registry.reads.requests = registry.reads.rows = 0;
    const pushes = await Promise.all(Array.from({ length: 10 }, () => catalog.knownIds(partnerId)));
    for (const ids of pushes) expect(ids).toEqual(new Set(['P-BURGER', 'P-FRIES', 'P-COLA']));
    expect({ registryReads: registry.reads.requests, registryRows: registry.reads.rows }).toEqual({ registryReads: 1, registryRows: 3 });
    expect(products.reads.requests).toBe(0);

    // What listing the product rows for their ids would have read instead.
    const productRows = listEntityPages(products.table, {
      filter: odata`PartitionKey eq ${encodeKeyPart(partnerId)}`,
      select: ['productId'],
    });
    let listed = 0;
    for await (const page of productRows) listed += page.length;
    expect(listed).toBe(1_200);
    expect({ pages: products.reads.requests, rows: products.reads.rows }).toEqual({ pages: 2, rows: 1_200 });
  });
});
