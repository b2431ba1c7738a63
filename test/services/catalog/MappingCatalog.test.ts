import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorageError } from '../../../src/errors/StorageError.js';
import { toErrorResponse, type ErrorBody } from '../../../src/http/toErrorResponse.js';
import { MappingCatalog } from '../../../src/services/catalog/MappingCatalog.js';
import { MappingRepository } from '../../../src/storage/MappingRepository.js';
import { RawBatchStore } from '../../../src/storage/RawBatchStore.js';
import { encodeKeyPart } from '../../../src/storage/tableKey.js';
import { startTestService, type TestService } from '../../support/startTestService.js';
import { setUpPartner } from '../../e2e/support/partnerFlow.js';
import { USD } from '../../fixtures/tradeRecordFixtures.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

describe('MappingCatalog', () => {
  it('takes a mapping whose raw upload is missing as storage unavailable, so that callers send again', async () => {
    const { partner } = await setUpPartner(service, [USD]);
    const { storage } = service.services;
    // An instance that has not read the mapping yet.
    const catalog = () => new MappingCatalog(new MappingRepository(storage.tables.mappings), new RawBatchStore(storage.rawBatches));
    const mapping = await catalog().current(partner.partnerId);
    expect(mapping.byCode.size).toBeGreaterThan(0);

    const upload = storage.rawBatches.getBlockBlobClient(`${encodeKeyPart(partner.partnerId)}/${mapping.batchId!.toLowerCase()}.json`);
    expect(await upload.exists()).toBe(true);
    await upload.delete();
    const failure = await catalog()
      .current(partner.partnerId)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(StorageError);
    expect(failure).toMatchObject({ kind: 'unavailable', statusCode: 404, code: 'BlobNotFound' });

    // What a push meets meanwhile: 503, to send again, not a 500 that says not to.
    const { response } = toErrorResponse(failure, 'request-1');
    expect([response.status, (response.jsonBody as ErrorBody).error.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
  });
});
