/**
 * A batch_id is one idempotency key across every push endpoint of a partner. A request that finds
 * the id pending with another body finishes that batch from its stored body, by the processor of
 * the batch's own kind, and is told the id was reused: over HTTP, on the storage emulator.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMappingBatch } from '../../fixtures/masterDataFixtures.js';
import { SimulatedCrash } from '../../reliability/support/faultPolicy.js';
import { ackOf } from '../../support/responseBodies.js';
import { partnerWithStores, tradeBatch } from '../../support/httpScenario.js';
import { startTestService, type TestService } from '../../support/startTestService.js';

/** The batch whose push stops right after its body is stored, as a crash would leave it. */
let crashAfterBodyOf: string | undefined;

describe('a batch_id reused on another endpoint while its batch is pending', () => {
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
