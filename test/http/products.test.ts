import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductBatch } from '../../src/domain/model/payloads.js';
import { buildProductBatch } from '../fixtures/masterDataFixtures.js';
import { invokeInProcess, type EndpointCaller } from '../support/invokeInProcess.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { expectInvalid, jpyStore, newBatchId, partnerWithStores } from '../support/httpScenario.js';
import { withValueAt, withoutValueAt } from '../support/jsonEdits.js';
import { ackOf, errorOf, errorPaths } from '../support/responseBodies.js';

// What the service decides, called in-process: HTTP is not under test here.
let service: TestService;
let call: EndpointCaller;
beforeAll(async () => {
  service = await startTestService();
  call = invokeInProcess(service.services);
});
afterAll(async () => {
  await service.stop();
});

function productBatch(): ProductBatch {
  return { ...buildProductBatch(), batch_id: newBatchId() };
}

/** A product body; `overrides` may make it one the schema refuses. */
function product(product_id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    product_id,
    name: { 'en-US': product_id },
    unit_price: '1.00',
    currency: 'USD',
    status: 'ACTIVE',
    version: 1,
    last_modified_at: '2026-02-25T08:00:00-05:00',
    product_type: 'SINGLE',
    ...overrides,
  };
}

async function put(partner: TestPartner, body: unknown) {
  return call(partner, 'PUT', 'products', body);
}

describe('PUT /products', () => {
  it('answers 202 with record_count = products, then 200 ALREADY_RECEIVED with the same receipt', async () => {
    const partner = await partnerWithStores(service);
    const body = productBatch();
    const first = await put(partner, body);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ batch_id: body.batch_id, status: 'ACCEPTED', record_count: body.products.length, warnings: [] });
    expect(ackOf(first).record_count).toBe(5);
    const again = await put(partner, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...ackOf(first), status: 'ALREADY_RECEIVED' });
  });

  it('accepts an empty products list that only updates modifier groups (record_count 0)', async () => {
    const partner = await partnerWithStores(service);
    const response = await put(partner, { ...productBatch(), products: [] });
    expect(response.status).toBe(202);
    expect(ackOf(response).record_count).toBe(0);
  });

  it('rejects a wrong type, a missing field, a bad enum and bad codes with INVALID_PAYLOAD', async () => {
    const partner = await partnerWithStores(service);
    expectInvalid(await put(partner, withValueAt(productBatch(), '/products/1/version', '2')), '/products/1/version');

    const response = await put(partner, withoutValueAt(productBatch(), '/products/2/unit_price'));
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('INVALID_PAYLOAD');

    for (const [pointer, value] of [
      ['/products/0/product_type', 'MEAL'],
      ['/products/0/tax_category', 'LUXURY'],
      ['/products/3/currency', 'ABC'],
      ['/products/3/name', {}],
    ] as const) {
      expectInvalid(await put(partner, withValueAt(productBatch(), pointer, value)), pointer);
    }
  });

  it('rejects a unit_price with the wrong decimal places for USD and for JPY', async () => {
    const partner = await partnerWithStores(service);
    expectInvalid(
      await put(partner, { batch_id: newBatchId(), products: [product('P-1', { unit_price: '9.9' })] }),
      '/products/0/unit_price',
    );
    expectInvalid(
      await put(partner, { batch_id: newBatchId(), products: [product('P-2', { currency: 'JPY', unit_price: '120.5' })] }),
      '/products/0/unit_price',
    );
    const jpy = await put(partner, { batch_id: newBatchId(), products: [product('P-3', { currency: 'JPY', unit_price: '120' })] });
    expect(jpy.status).toBe(202);
  });

  it('rejects a substitutable combo component without substitute_group_id', async () => {
    const partner = await partnerWithStores(service);
    const pointer = '/products/0/combo_components/2/substitute_group_id';
    expectInvalid(await put(partner, withoutValueAt(productBatch(), pointer)), pointer);
  });

  it('refuses 501 products with BATCH_TOO_LARGE', async () => {
    const partner = await partnerWithStores(service);
    const products = Array.from({ length: 501 }, (_, i) => product(`P-${i}`));
    const response = await put(partner, { batch_id: newBatchId(), products });
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('BATCH_TOO_LARGE');
  });

  it('refuses a store-specific product of a store not registered for the partner', async () => {
    const partner = await service.createPartner({ stores: [jpyStore] });
    const body = productBatch(); // holds a store-specific product of NYC-0001
    const response = await put(partner, body);
    expect(response.status).toBe(403);
    expect(errorOf(response).code).toBe('STORE_NOT_ALLOWED');
    const refusedAt = body.products.flatMap((p, i) => (p.store_id ? [`/products/${i}/store_id`] : []));
    expect(errorPaths(response)).toEqual(refusedAt);
    const shared = await put(partner, { batch_id: newBatchId(), products: [product('P-SHARED', { store_id: null })] });
    expect(shared.status).toBe(202);
    const own = await put(partner, {
      batch_id: newBatchId(),
      products: [product('P-OWN', { store_id: jpyStore, currency: 'JPY', unit_price: '300' })],
    });
    expect(own.status).toBe(202);
  });
});
