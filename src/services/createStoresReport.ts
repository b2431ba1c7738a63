import { PartnerRepository } from '../storage/PartnerRepository.js';
import type { StorageClients } from '../storage/StorageClients.js';
import { StoreMasterRepository } from '../storage/StoreMasterRepository.js';
import { StoreRegistrationRepository } from '../storage/StoreRegistrationRepository.js';
import { StoresFileStore } from '../storage/StoresFileStore.js';
import type { Clock } from './ports/Clock.js';
import { StoresReport } from './reports/StoresReport.js';

/** The stores dataset's writer over the service's storage: the timer's, and the HQ tool's `reports rebuild`. */
export function createStoresReport(storage: StorageClients, clock: Clock): StoresReport {
  const t = storage.tables;
  return new StoresReport({
    partners: new PartnerRepository(t.partners),
    registrations: new StoreRegistrationRepository(t.storeRegistrations),
    stores: new StoreMasterRepository(t.stores),
    files: new StoresFileStore(storage.reports),
    clock,
  });
}
