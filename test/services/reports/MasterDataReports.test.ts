import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MappingCatalog } from '../../../src/services/catalog/MappingCatalog.js';
import { MasterDataReports } from '../../../src/services/reports/MasterDataReports.js';
import { MappingRepository } from '../../../src/storage/MappingRepository.js';
import { partnerFileBlobName } from '../../../src/reports/reportBlobName.js';
import { PartnerFileStore } from '../../../src/storage/PartnerFileStore.js';
import { PartnerRepository } from '../../../src/storage/PartnerRepository.js';
import { ProductRepository } from '../../../src/storage/ProductRepository.js';
import { RawBatchStore } from '../../../src/storage/RawBatchStore.js';
import { StoreMasterRepository } from '../../../src/storage/StoreMasterRepository.js';
import { StoreRegistrationRepository } from '../../../src/storage/StoreRegistrationRepository.js';
import { startTestService, type TestService } from '../../support/startTestService.js';
import { partnerWithStores } from '../../support/httpScenario.js';
import { buildMappingBatch } from '../../fixtures/masterDataFixtures.js';
import { standardTransactionTypes, type StandardTransactionTypeList } from '../../../src/domain/reference/standardTransactionTypes.js';

let service: TestService;
const partnerCount = 6;

beforeAll(async () => {
  // A service of its own: its storage holds exactly these partners.
  service = await startTestService();
  for (let i = 0; i < partnerCount; i++) await service.createPartner();
}, 60_000);

afterAll(async () => {
  await service.stop();
});

/** The writer over the service's storage, counting the partners it has under way at once. */
function countingWriter(): { reports: MasterDataReports; mostAtOnce: () => number } {
  const t = service.services.storage.tables;
  const registrations = new StoreRegistrationRepository(t.storeRegistrations);
  let underWay = 0;
  let most = 0;
  const listRegistrations = registrations.listRegistrations.bind(registrations);
  registrations.listRegistrations = async (partnerId) => {
    underWay += 1;
    most = Math.max(most, underWay);
    try {
      // Long enough that partners started together are seen together.
      await sleep(30);
      return await listRegistrations(partnerId);
    } finally {
      underWay -= 1;
    }
  };
  return { reports: writerWith(registrations), mostAtOnce: () => most };
}

/** The writer over the service's storage, reading registrations through `registrations`. */
function writerWith(registrations: StoreRegistrationRepository, standardTypes = standardTransactionTypes): MasterDataReports {
  const t = service.services.storage.tables;
  return new MasterDataReports({
    partners: new PartnerRepository(t.partners),
    registrations,
    stores: new StoreMasterRepository(t.stores),
    products: new ProductRepository(t.products, t.modifierGroups),
    mappings: new MappingCatalog(new MappingRepository(t.mappings), new RawBatchStore(service.services.storage.rawBatches)),
    files: new PartnerFileStore(service.services.storage.reports),
    clock: () => new Date(),
    standardTypes,
  });
}

describe('MasterDataReports.writeAll', () => {
  it('starts no partner once its time budget is spent, and says how many it did not reach', async () => {
    const { reports, mostAtOnce } = countingWriter();
    const summary = await reports.writeAll(0);
    expect(summary).toMatchObject({ partners: partnerCount, notReached: partnerCount, failures: [] });
    expect(summary.datasets.stores).toEqual({ written: 0, unchanged: 0, removed: 0 });
    expect(mostAtOnce()).toBe(0);
  });

  it('writes every partner within its budget, four at a time', async () => {
    const { reports, mostAtOnce } = countingWriter();
    const summary = await reports.writeAll(Number.POSITIVE_INFINITY);
    expect(summary).toMatchObject({ partners: partnerCount, notReached: 0, failures: [] });
    expect(summary.datasets.stores).toEqual({ written: partnerCount, unchanged: 0, removed: 0 });
    expect(mostAtOnce()).toBe(4);
    // Nothing changed since: every file is found unchanged.
    expect((await reports.writeAll(Number.POSITIVE_INFINITY)).datasets.stores).toEqual({ written: 0, unchanged: partnerCount, removed: 0 });
  });

  it('ends every write of a partner before reporting it failed, when one of its files cannot be built', async () => {
    const partnerId = (await service.createPartner()).partnerId;
    const t = service.services.storage.tables;
    // A mapping in effect whose body is not in the raw batch store: that file cannot be built (storage
    // does not give what it holds, a failure to retry).
    await new MappingRepository(t.mappings).switchTo(partnerId, {
      batchId: 'no-such-batch',
      receivedAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    const registrations = new StoreRegistrationRepository(t.storeRegistrations);
    const listRegistrations = registrations.listRegistrations.bind(registrations);
    let storesRead = false;
    registrations.listRegistrations = async (id) => {
      await sleep(200);
      storesRead = true;
      return listRegistrations(id);
    };
    await expect(writerWith(registrations).writePartner(partnerId)).rejects.toThrow(/storage unavailable: 404 BlobNotFound/);
    // The stores file was written before the call ended, not after.
    expect(storesRead).toBe(true);
    expect(await service.services.storage.reports.getBlockBlobClient(partnerFileBlobName('stores', partnerId)).exists()).toBe(true);
  });
});

describe('the transaction-type mapping file', () => {
  it('is written again when the standard list changes what a mapped code is, though its version did not move', async () => {
    const { partnerId } = await partnerWithStores(service, { mapping: true });
    const registrations = new StoreRegistrationRepository(service.services.storage.tables.storeRegistrations);
    const mappingFile = async (standardTypes: StandardTransactionTypeList) =>
      (await writerWith(registrations, standardTypes).writePartner(partnerId)).transaction_type_mappings;
    expect(await mappingFile(standardTransactionTypes)).toBe('written');
    expect(await mappingFile(standardTransactionTypes)).toBe('unchanged');
    // The list as a release might correct it: a type the mapping names no longer counts as revenue.
    const named = buildMappingBatch().mappings[0]?.standard_code;
    const corrected: StandardTransactionTypeList = {
      ...standardTransactionTypes,
      data: standardTransactionTypes.data.map((type) => (type.code === named ? { ...type, is_revenue: !type.is_revenue } : type)),
    };
    expect(corrected.data).not.toEqual(standardTransactionTypes.data);
    expect(await mappingFile(corrected)).toBe('written');
    expect(await mappingFile(corrected)).toBe('unchanged');
  });
});
