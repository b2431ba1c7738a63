import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MappingBatch } from '../../src/domain/model/payloads.js';
import { buildMappingBatch } from '../fixtures/masterDataFixtures.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { newBatchId, partnerWithStores, tradeBatch, warningCodes } from '../support/httpScenario.js';
import { withValueAt, withoutValueAt } from '../support/jsonEdits.js';
import { ackOf, errorOf, errorPaths, mappingOf } from '../support/responseBodies.js';
import { anyString } from '../support/matchers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

function mappingBatch(): MappingBatch {
  return { ...buildMappingBatch(), batch_id: newBatchId() };
}

async function put(partner: TestPartner, body: unknown) {
  return service.call(partner, 'PUT', 'mappings/transaction-types', body);
}

async function get(partner: TestPartner) {
  return service.call(partner, 'GET', 'mappings/transaction-types');
}

describe('PUT /mappings/transaction-types', () => {
  it('answers 202 with record_count = entries, then 200 ALREADY_RECEIVED with the same receipt', async () => {
    const partner = await service.createPartner();
    const body = mappingBatch();
    const first = await put(partner, body);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ batch_id: body.batch_id, status: 'ACCEPTED', record_count: 4, warnings: [] });
    const again = await put(partner, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...ackOf(first), status: 'ALREADY_RECEIVED' });
  });

  it('refuses a standard_code outside the standard list with UNKNOWN_STANDARD_CODE, applying nothing', async () => {
    const partner = await service.createPartner();
    const body = mappingBatch();
    body.mappings[2]!.standard_code = 'GIVEAWAY';
    const response = await put(partner, body);
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('UNKNOWN_STANDARD_CODE');
    expect(errorOf(response).details).toEqual([{ path: '/mappings/2/standard_code', message: anyString() }]);
    expect(mappingOf(await get(partner)).mappings).toEqual([]);
  });

  it('rejects a duplicate source_code, a missing standard_code and an empty list with INVALID_PAYLOAD', async () => {
    const partner = await service.createPartner();
    const duplicate = mappingBatch();
    duplicate.mappings[3]!.source_code = '01';
    const dup = await put(partner, duplicate);
    expect(dup.status).toBe(400);
    expect(errorOf(dup).code).toBe('INVALID_PAYLOAD');
    expect(errorPaths(dup)).toContain('/mappings/3/source_code');

    const miss = await put(partner, withoutValueAt(mappingBatch(), '/mappings/0/standard_code'));
    expect(miss.status).toBe(400);
    expect(errorOf(miss).code).toBe('INVALID_PAYLOAD');

    const empty = await put(partner, { batch_id: newBatchId(), mappings: [] });
    expect(empty.status).toBe(400);
    expect(errorOf(empty).code).toBe('INVALID_PAYLOAD');

    const wrong = await put(partner, withValueAt(mappingBatch(), '/mappings/1/source_code', 2));
    expect(wrong.status).toBe(400);
    expect(errorPaths(wrong)).toContain('/mappings/1/source_code');
  });
});

describe('GET /mappings/transaction-types', () => {
  it('answers an empty mapping before any upload', async () => {
    const partner = await service.createPartner();
    const response = await get(partner);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ partner_id: partner.partnerId, batch_id: null, updated_at: null, mappings: [] });
  });

  it('shows only the last upload: full replacement', async () => {
    const partner = await service.createPartner();
    const first = mappingBatch();
    expect((await put(partner, first)).status).toBe(202);
    const afterFirst = await get(partner);
    expect(afterFirst.body).toMatchObject({ partner_id: partner.partnerId, batch_id: first.batch_id, mappings: first.mappings });

    const second = { batch_id: newBatchId(), mappings: [{ source_code: 'NEW-01', standard_code: 'EXCHANGE' }] };
    expect((await put(partner, second)).status).toBe(202);
    const response = await get(partner);
    expect(response.status).toBe(200);
    const current = mappingOf(response);
    expect(current.partner_id).toBe(partner.partnerId);
    expect(current.batch_id).toBe(second.batch_id);
    expect(current.mappings).toEqual(second.mappings);
    expect(current.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(Date.parse(current.updated_at ?? '')).toBeGreaterThanOrEqual(Date.parse(mappingOf(afterFirst).updated_at ?? ''));
  });

  it('drives UNMAPPED_TRANSACTION_TYPE: a code is mapped after an upload and unmapped after a replacement without it', async () => {
    const partner = await partnerWithStores(service);
    const before = await service.call(partner, 'POST', 'trade-records', tradeBatch({ recordCount: 1 }));
    expect(warningCodes(before)).toContain('UNMAPPED_TRANSACTION_TYPE');

    expect((await put(partner, mappingBatch())).status).toBe(202);
    const mapped = tradeBatch({ recordCount: 1 });
    mapped.trade_records[0]!.version = 2;
    expect(warningCodes(await service.call(partner, 'POST', 'trade-records', mapped))).not.toContain('UNMAPPED_TRANSACTION_TYPE');

    expect((await put(partner, { batch_id: newBatchId(), mappings: [{ source_code: 'URIAGE', standard_code: 'SALE' }] })).status).toBe(202);
    const removed = tradeBatch({ recordCount: 1 });
    removed.trade_records[0]!.version = 3;
    expect(warningCodes(await service.call(partner, 'POST', 'trade-records', removed))).toContain('UNMAPPED_TRANSACTION_TYPE');
  });
});
