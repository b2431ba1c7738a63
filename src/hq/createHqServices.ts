import type { Config } from '../config/Config.js';
import { ApiKeyRepository } from '../storage/ApiKeyRepository.js';
import { BatchLedgerListing } from '../storage/BatchLedgerListing.js';
import { DayCloseRepository } from '../storage/DayCloseRepository.js';
import { OperatorKeyRepository } from '../storage/OperatorKeyRepository.js';
import { PartnerRepository } from '../storage/PartnerRepository.js';
import { PaymentDirectionRepository } from '../storage/PaymentDirectionRepository.js';
import { ReconciliationRepository } from '../storage/ReconciliationRepository.js';
import { ReportStoreDayRepository } from '../storage/ReportStoreDayRepository.js';
import { createClosedDayReruns } from '../services/reruns/createClosedDayReruns.js';
import { SalesQuery } from '../services/reports/SalesQuery.js';
import { UnmappedQuery } from '../services/reports/UnmappedQuery.js';
import type { StorageClients } from '../storage/StorageClients.js';
import { StoreMasterRepository } from '../storage/StoreMasterRepository.js';
import { StoreRegistrationRepository } from '../storage/StoreRegistrationRepository.js';
import { TradeRecordIndex } from '../storage/TradeRecordIndex.js';
import { UnmappedUsageRepository } from '../storage/UnmappedUsageRepository.js';
import { WebhookDeadLetterRepository } from '../storage/WebhookDeadLetterRepository.js';
import { WebhookFailureQuery } from '../services/webhooks/WebhookFailureQuery.js';
import type { HqServices } from './HqServices.js';
import { HqRequestValidator } from './http/HqRequestValidator.js';
import { BatchList } from './services/BatchList.js';
import { DeadLetterList } from './services/DeadLetterList.js';
import { OperatorAuthenticator } from './services/OperatorAuthenticator.js';
import { PartnerAdmin } from './services/PartnerAdmin.js';
import { PartnerDirectory } from './services/PartnerDirectory.js';
import { ReportTotals } from './services/ReportTotals.js';
import { StoreDayDetail } from './services/StoreDayDetail.js';
import { StoreDayGrid } from './services/StoreDayGrid.js';

/** Wires the HQ API's services on the service's storage clients. No I/O happens here. */
export function createHqServices(config: Config, storage: StorageClients, clock: () => Date): HqServices {
  const t = storage.tables;
  const partners = new PartnerRepository(t.partners);
  const registrations = new StoreRegistrationRepository(t.storeRegistrations);
  const stores = new StoreMasterRepository(t.stores);
  const results = new ReconciliationRepository(t.reconciliations);
  const partnerKeys = new ApiKeyRepository(t.apiKeys);
  const directions = new PaymentDirectionRepository(t.paymentDirections);
  const reportStoreDays = new ReportStoreDayRepository(t.reportStoreDays);
  const closes = new DayCloseRepository(t.dailyCloses);
  return {
    authenticator: new OperatorAuthenticator(new OperatorKeyRepository(t.operatorKeys), partnerKeys, clock),
    validator: new HqRequestValidator(),
    grid: new StoreDayGrid(partners, registrations, stores, results, clock),
    dayDetail: new StoreDayDetail(partners, registrations, stores, closes, results, new TradeRecordIndex(t.tradeRecords), clock),
    batches: new BatchList(new BatchLedgerListing(t.batchLedger, { pending: t.pendingBatches, failed: t.failedBatches })),
    directory: new PartnerDirectory(partners, registrations, stores, partnerKeys, directions, config.rateLimitPerMinute, clock),
    admin: new PartnerAdmin(partners, registrations, directions, createClosedDayReruns(storage, clock), partnerKeys, clock),
    reports: new ReportTotals(
      new SalesQuery(reportStoreDays, partners),
      new UnmappedQuery(reportStoreDays, partners, new UnmappedUsageRepository(t.unmappedUsage)),
      clock,
    ),
    deadLetters: new DeadLetterList(partners, new WebhookFailureQuery(new WebhookDeadLetterRepository(t.webhookDeadLetters))),
    clock,
  };
}
