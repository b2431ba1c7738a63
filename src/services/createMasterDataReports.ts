import { standardTransactionTypes } from '../domain/reference/standardTransactionTypes.js';
import { MappingRepository } from '../storage/MappingRepository.js';
import { PartnerRepository } from '../storage/PartnerRepository.js';
import { PartnerFileStore } from '../storage/PartnerFileStore.js';
import { ProductRepository } from '../storage/ProductRepository.js';
import { RawBatchStore } from '../storage/RawBatchStore.js';
import type { StorageClients } from '../storage/StorageClients.js';
import { StoreMasterRepository } from '../storage/StoreMasterRepository.js';
import { StoreRegistrationRepository } from '../storage/StoreRegistrationRepository.js';
import { MappingCatalog } from './catalog/MappingCatalog.js';
import type { Clock } from './ports/Clock.js';
import { MasterDataReports } from './reports/MasterDataReports.js';

/** The master-data datasets' writer over the service's storage: the timer's, and the HQ tool's `reports rebuild`. */
export function createMasterDataReports(storage: StorageClients, clock: Clock): MasterDataReports {
  const t = storage.tables;
  return new MasterDataReports({
    partners: new PartnerRepository(t.partners),
    registrations: new StoreRegistrationRepository(t.storeRegistrations),
    stores: new StoreMasterRepository(t.stores),
    products: new ProductRepository(t.products, t.modifierGroups),
    mappings: new MappingCatalog(new MappingRepository(t.mappings), new RawBatchStore(storage.rawBatches)),
    files: new PartnerFileStore(storage.reports),
    clock,
    standardTypes: standardTransactionTypes,
  });
}
