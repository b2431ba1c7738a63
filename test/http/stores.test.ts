import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store, StoreBatch } from '../../src/domain/model/payloads.js';
import { buildJpyStore, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { StoreMasterRepository } from '../../src/storage/StoreMasterRepository.js';
import { invokeInProcess, type EndpointCaller } from '../support/invokeInProcess.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { expectInvalid, jpyStore, newBatchId, usdStore } from '../support/httpScenario.js';
import { withValueAt, withoutValueAt } from '../support/jsonEdits.js';
import { ackOf, errorOf, errorPaths } from '../support/responseBodies.js';

// What the service decides about store batches, called in-process: HTTP is not under test here.
let service: TestService;
let call: EndpointCaller;
beforeAll(async () => {
  service = await startTestService();
  call = invokeInProcess(service.services);
});
afterAll(async () => {
  await service.stop();
});

function storeBatch(stores: Store[] = [buildUsdStore(usdStore), buildJpyStore(jpyStore)]): StoreBatch {
  return { batch_id: newBatchId(), stores };
}

async function put(partner: TestPartner, body: unknown) {
  return call(partner, 'PUT', 'stores', body);
}

describe('PUT /stores', () => {
  it('answers 202 with record_count = stores, then 200 ALREADY_RECEIVED with the same receipt', async () => {
    const partner = await service.createPartner({ stores: [usdStore, jpyStore] });
    const body = storeBatch();
    const first = await put(partner, body);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ batch_id: body.batch_id, status: 'ACCEPTED', record_count: 2, warnings: [] });
    const again = await put(partner, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...ackOf(first), status: 'ALREADY_RECEIVED' });
  });

  it('accepts every one of two dozen uploads of one store with one last_modified_at sent at once', async () => {
    const partner = await service.createPartner({ stores: [usdStore] });
    const store = { ...buildUsdStore(usdStore), last_modified_at: '2026-03-01T00:00:00.000Z' };
    expect((await put(partner, storeBatch([store]))).status).toBe(202);
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => put(partner, storeBatch([{ ...store, store_name: `Broadway ${String(i)}` }]))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 24 }, () => 202));
  });

  it('corrects a store stored stamped far ahead by a release without the bound, with a copy stamped now', async () => {
    const partner = await service.createPartner({ stores: [usdStore] });
    const placeholder = { ...buildUsdStore(usdStore), store_name: 'Placeholder', last_modified_at: '9999-12-31T23:59:59Z' };
    // As such a release stored it: written straight, with the clock of that stamp.
    const stored = new StoreMasterRepository(service.services.storage.tables.stores);
    await stored.upsert(partner.partnerId, [placeholder], new Date('9999-12-31T00:00:00Z'));
    const corrected = { ...placeholder, store_name: 'Corrected', last_modified_at: new Date().toISOString() };
    const answer = await put(partner, storeBatch([corrected]));
    expect([answer.status, ackOf(answer).warnings]).toEqual([202, []]);
    expect(await stored.get(partner.partnerId, usdStore)).toEqual(corrected);
  });

  it('rejects a wrong type, a missing field and a bad enum with INVALID_PAYLOAD', async () => {
    const partner = await service.createPartner({ stores: [usdStore, jpyStore] });
    const wrongType = '/stores/0/prices_include_tax';
    expectInvalid(await put(partner, withValueAt(storeBatch(), wrongType, 'no')), wrongType);

    const response = await put(partner, withoutValueAt(storeBatch(), '/stores/1/time_zone'));
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('INVALID_PAYLOAD');
    expect(errorPaths(response).some((path) => path.startsWith('/stores/1'))).toBe(true);

    expectInvalid(await put(partner, withValueAt(storeBatch(), '/stores/1/status', 'CLOSED')), '/stores/1/status');
  });

  it('rejects bad formats: workday_start, country, currency, time zone, locale, timestamp (one far ahead too)', async () => {
    const partner = await service.createPartner({ stores: [usdStore, jpyStore] });
    const cases: [string, unknown][] = [
      ['workday_start', '4am'],
      ['country_code', 'XQ'],
      ['currency', 'DOLLAR'],
      ['time_zone', 'Mars/Olympus_Mons'],
      ['time_zone', 'america/new_york'],
      ['locale', 'english please'],
      ['last_modified_at', '2026-02-20'],
      // Two days after the service's clock: a stamp no correction could ever follow.
      ['last_modified_at', new Date(Date.now() + 2 * 86_400_000).toISOString()],
      ['last_modified_at', '9999-12-31T23:59:59Z'],
    ];
    for (const [field, value] of cases) {
      const pointer = `/stores/0/${field}`;
      expectInvalid(await put(partner, withValueAt(storeBatch(), pointer, value)), pointer);
    }
  });

  it('rejects a store_id twice in one batch and an empty list', async () => {
    const partner = await service.createPartner({ stores: [usdStore, jpyStore] });
    expectInvalid(await put(partner, storeBatch([buildUsdStore(usdStore), buildUsdStore(usdStore)])), '/stores/1/store_id');
    const empty = await put(partner, storeBatch([]));
    expect(empty.status).toBe(400);
    expect(errorOf(empty).code).toBe('INVALID_PAYLOAD');
  });

  it('refuses 501 stores with BATCH_TOO_LARGE', async () => {
    const partner = await service.createPartner({ stores: [usdStore] });
    const stores = Array.from({ length: 501 }, (_, i) => buildUsdStore(`S-${String(i).padStart(4, '0')}`));
    const response = await put(partner, storeBatch(stores));
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('BATCH_TOO_LARGE');
  });

  it('refuses the whole batch with STORE_NOT_ALLOWED when one store is not registered', async () => {
    const partner = await service.createPartner({ stores: [usdStore] });
    const refused = storeBatch([buildUsdStore(usdStore), buildJpyStore(jpyStore)]);
    const response = await put(partner, refused);
    expect(response.status).toBe(403);
    expect(errorOf(response).code).toBe('STORE_NOT_ALLOWED');
    // Where the store is, not which: the answer names no store_id.
    expect(errorPaths(response)).toEqual(['/stores/1/store_id']);
    expect(JSON.stringify(response.body)).not.toContain(jpyStore);
    // Nothing of the refused batch was recorded: its batch_id is still free.
    const ok = await put(partner, { batch_id: refused.batch_id, stores: [buildUsdStore(usdStore)] });
    expect(ok.status).toBe(202);
    expect(ackOf(ok).status).toBe('ACCEPTED');
  });

  it("makes the uploaded currency the one the store's daily close must use", async () => {
    const partner = await service.createPartner({ stores: ['OSA-0001'] });
    expect((await put(partner, storeBatch([buildJpyStore('OSA-0001')]))).status).toBe(202);
    const close = {
      batch_id: newBatchId(),
      store_id: 'OSA-0001',
      business_date: '2026-03-01',
      batch_count: 0,
      trade_record_count: 0,
      item_row_count: 0,
      payment_row_count: 0,
      net_sales_amount: '0.00',
      tax_amount: '0.00',
      tip_amount: '0.00',
      payment_total_amount: '0.00',
      currency: 'USD',
      closed_at: '2026-03-02T04:00:00+09:00',
    };
    const response = await call(partner, 'POST', 'daily-close', close);
    expect(response.status).toBe(400);
    expect(errorPaths(response)).toContain('/currency');
  });
});
