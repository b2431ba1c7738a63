/**
 * A batch_id is one idempotency key across every push endpoint of a partner, over HTTP on the
 * storage emulator: a request that finds the id pending with another body finishes that batch from
 * its stored body, by the processor of the batch's own kind, and is told the id was reused; and a
 * repeat of an accepted batch is answered as one even when the batch would be refused today.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMappingBatch, buildUsdStore } from '../../fixtures/masterDataFixtures.js';
import { SimulatedCrash } from '../../reliability/support/faultPolicy.js';
import { ackOf } from '../../support/responseBodies.js';
import { partnerWithStores, tradeBatch, usdStore } from '../../support/httpScenario.js';
import { startTestService, type TestService } from '../../support/startTestService.js';

/** The batch whose push stops right after its body is stored, as a crash would leave it. */
let crashAfterBodyOf: string | undefined;

let service: TestService;
beforeAll(async () => {
  service = await startTestService({
    services: {
      onPushStep: (step, batchId) => {
        if (step === 'blob-stored' && batchId === crashAfterBodyOf) {
          crashAfterBodyOf = undefined;
          throw new SimulatedCrash(step);
        }
      },
    },
  });
});
afterAll(async () => {
  await service.stop();
});

describe('a batch_id reused on another endpoint while its batch is pending', () => {
  it('finishes the pending trade records as trade records and leaves the mapping in effect alone', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    const mappingBefore = await service.call(partner, 'GET', 'mappings/transaction-types');
    expect(mappingBefore.status).toBe(200);

    const batchId = randomUUID();
    const trades = tradeBatch({ batchId, recordCount: 3 });
    crashAfterBodyOf = batchId;
    expect((await service.call(partner, 'POST', 'trade-records', trades)).status).toBeGreaterThanOrEqual(500);

    // The same id on the mapping endpoint, with a mapping's body.
    const reused = await service.call(partner, 'PUT', 'mappings/transaction-types', { ...buildMappingBatch(), batch_id: batchId });
    expect(reused.status).toBe(200);
    expect(ackOf(reused).warnings.map((w) => w.code)).toContain('BATCH_ID_REUSED');

    // The mapping in effect is the one uploaded before, and reads as it did.
    const mappingAfter = await service.call(partner, 'GET', 'mappings/transaction-types');
    expect(mappingAfter.status).toBe(200);
    expect(mappingAfter.body).toEqual(mappingBefore.body);
    // The trade records were applied as such: their push, sent again, is a repeat of 3 records.
    const again = await service.call(partner, 'POST', 'trade-records', trades);
    expect(again.status).toBe(200);
    expect(ackOf(again)).toMatchObject({ batch_id: batchId, status: 'ALREADY_RECEIVED', record_count: 3 });
  });
});

describe('a repeat of an accepted batch that would be refused today', () => {
  it("is answered 200 ALREADY_RECEIVED after the store's currency changed; new data in the old currency is refused", async () => {
    const partner = await partnerWithStores(service);
    const accepted = tradeBatch({ recordCount: 2 });
    expect((await service.call(partner, 'POST', 'trade-records', accepted)).status).toBe(202);

    const euro = { ...buildUsdStore(usdStore), currency: 'EUR', last_modified_at: '2026-02-21T09:00:00-05:00' };
    expect((await service.call(partner, 'PUT', 'stores', { batch_id: randomUUID(), stores: [euro] })).status).toBe(202);
    // New data in dollars is refused now.
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch({ recordCount: 2 }))).status).toBe(400);

    // The same batch again, byte for byte, is a repeat of what was accepted.
    const again = await service.call(partner, 'POST', 'trade-records', accepted);
    expect(again.status).toBe(200);
    expect(ackOf(again)).toMatchObject({ batch_id: accepted.batch_id, status: 'ALREADY_RECEIVED', record_count: 2 });
    // Another body under that batch_id is not a repeat: it is checked, and refused, as new data.
    const other = { ...tradeBatch({ recordCount: 1 }), batch_id: accepted.batch_id };
    expect((await service.call(partner, 'POST', 'trade-records', other)).status).toBe(400);
  });
});
