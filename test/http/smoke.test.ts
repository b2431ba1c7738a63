import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTradeRecordBatch, fixtureUuid } from '../fixtures/tradeRecordFixtures.js';
import { buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { startTestService, type TestService } from '../support/startTestService.js';
import { ackOf } from '../support/responseBodies.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

describe('harness', () => {
  it('accepts a batch once and answers repeats as already received', async () => {
    const partner = await service.createPartner({ stores: ['NYC-0001'] });
    expect((await service.call(partner, 'PUT', 'stores', { batch_id: fixtureUuid(900), stores: [buildUsdStore()] })).status).toBe(202);
    const batch = buildTradeRecordBatch();
    const first = await service.call(partner, 'POST', 'trade-records', batch);
    expect(first.status).toBe(202);
    const again = await service.call(partner, 'POST', 'trade-records', batch);
    expect(again.status).toBe(200);
    expect(ackOf(again).status).toBe('ALREADY_RECEIVED');
  });
});
