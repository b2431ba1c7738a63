import { DayCloseRepository } from '../../storage/DayCloseRepository.js';
import { JsonQueue } from '../../storage/JsonQueue.js';
import { MappingRepository } from '../../storage/MappingRepository.js';
import { PaymentTypeUsageRepository } from '../../storage/PaymentTypeUsageRepository.js';
import { RawBatchStore } from '../../storage/RawBatchStore.js';
import type { StorageClients } from '../../storage/StorageClients.js';
import { UnmappedUsageRepository } from '../../storage/UnmappedUsageRepository.js';
import { MappingCatalog } from '../catalog/MappingCatalog.js';
import { ClosedDayReruns } from './ClosedDayReruns.js';

/**
 * The closed-day reruns on the service's storage: a composition helper (see CONTRIBUTING, "A new
 * table") for the three roots that build them alike: the partner API (createAppServices), the HQ
 * API (createHqServices) and the HQ tool (HqTool).
 */
export function createClosedDayReruns(storage: StorageClients, clock: () => Date): ClosedDayReruns {
  const t = storage.tables;
  const mappings = new MappingCatalog(new MappingRepository(t.mappings), new RawBatchStore(storage.rawBatches));
  return new ClosedDayReruns({
    unmappedCodes: new UnmappedUsageRepository(t.unmappedUsage),
    paymentTypes: new PaymentTypeUsageRepository(t.paymentTypeUsage),
    mappingInEffect: (partnerId) => mappings.current(partnerId),
    closes: new DayCloseRepository(t.dailyCloses),
    reconcileQueue: new JsonQueue(storage.queues.reconcile),
    rerunQueue: new JsonQueue(storage.queues.closedDayReruns),
    clock,
  });
}
