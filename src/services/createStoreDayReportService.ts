import { DayCloseRepository } from '../storage/DayCloseRepository.js';
import { MappingRepository } from '../storage/MappingRepository.js';
import { PaymentDirectionRepository } from '../storage/PaymentDirectionRepository.js';
import { RawBatchStore } from '../storage/RawBatchStore.js';
import { ReconciliationRepository } from '../storage/ReconciliationRepository.js';
import { ReportFragmentStore } from '../storage/ReportFragmentStore.js';
import { ReportStore } from '../storage/ReportStore.js';
import { ReportStoreDayRepository } from '../storage/ReportStoreDayRepository.js';
import type { StorageClients } from '../storage/StorageClients.js';
import { TradeRecordIndex } from '../storage/TradeRecordIndex.js';
import { StoreDaysWriterTable } from '../storage/StoreDaysWriterTable.js';
import { UnmappedUsageRepository } from '../storage/UnmappedUsageRepository.js';
import { MappingCatalog } from './catalog/MappingCatalog.js';
import { StoreDaysRewrites } from './reports/StoreDaysRewrites.js';
import { StoreDayReportService, type StoreDayReportDependencies } from './reports/StoreDayReportService.js';

/**
 * The report writer on its own storage clients (the service, the HQ tool and the tests build it
 * the same way); `tuning` sets prefetch and row-group size where a test needs small figures.
 */
export function createStoreDayReportService(
  storage: StorageClients,
  clock: () => Date,
  tuning: Pick<StoreDayReportDependencies, 'prefetch' | 'rowGroupRows'> = {},
): StoreDayReportService {
  const t = storage.tables;
  const rawBatches = new RawBatchStore(storage.rawBatches);
  return new StoreDayReportService({
    index: new TradeRecordIndex(t.tradeRecords),
    rawBatches,
    files: new ReportStore(storage.reports),
    fragments: new ReportFragmentStore(storage.reports),
    storeDays: new ReportStoreDayRepository(t.reportStoreDays),
    storeDaysRewrites: new StoreDaysRewrites(new StoreDaysWriterTable(t.storeDaysWriters), clock),
    results: new ReconciliationRepository(t.reconciliations),
    closes: new DayCloseRepository(t.dailyCloses),
    mappings: new MappingCatalog(new MappingRepository(t.mappings), rawBatches),
    paymentDirections: new PaymentDirectionRepository(t.paymentDirections),
    unmappedCodes: new UnmappedUsageRepository(t.unmappedUsage),
    clock,
    ...tuning,
  });
}
