import path from 'node:path';
import type { Config } from '../config/Config.js';
import { findProjectRoot } from '../config/findProjectRoot.js';
import { createHqServices } from '../hq/createHqServices.js';
import { deliveryPolicy, type DeliveryPolicy } from '../events/DeliveryPolicy.js';
import type { WebhookDeliveryMessage } from '../events/WebhookDeliveryMessage.js';
import { systemResolver, type HostResolver } from '../outbound/HostResolver.js';
import { WebhookSender } from '../outbound/WebhookSender.js';
import { WebhookTargetGuard } from '../outbound/WebhookTargetGuard.js';
import { poisonQueueName, queueNames } from '../storage/storageNames.js';
import { WebhookDeadLetterRepository } from '../storage/WebhookDeadLetterRepository.js';
import { WebhookEndpointHealthRepository } from '../storage/WebhookEndpointHealthRepository.js';
import { WebhookEventStore } from '../storage/WebhookEventStore.js';
import { WebhookRegistrationRepository } from '../storage/WebhookRegistrationRepository.js';
import { BodyBudget, partnerShareOf } from '../http/BodyBudget.js';
import { ApiKeyRepository } from '../storage/ApiKeyRepository.js';
import { BatchLedger } from '../storage/BatchLedger.js';
import { DayCloseRepository } from '../storage/DayCloseRepository.js';
import { FailedBatchIndex } from '../storage/FailedBatchIndex.js';
import { JsonQueue } from '../storage/JsonQueue.js';
import { MappingRepository } from '../storage/MappingRepository.js';
import { PartnerRepository } from '../storage/PartnerRepository.js';
import { PendingBatchIndex } from '../storage/PendingBatchIndex.js';
import { PaymentDirectionRepository } from '../storage/PaymentDirectionRepository.js';
import { PaymentTypeUsageRepository } from '../storage/PaymentTypeUsageRepository.js';
import { ProductIdRepository } from '../storage/ProductIdRepository.js';
import { ProductRepository } from '../storage/ProductRepository.js';
import { RawBatchStore } from '../storage/RawBatchStore.js';
import { ReportFragmentStore } from '../storage/ReportFragmentStore.js';
import { ReportStoreDayRepository } from '../storage/ReportStoreDayRepository.js';
import { ReconciliationRepository } from '../storage/ReconciliationRepository.js';
import { createStorageClients, type StorageClientOptions, type StorageClients } from '../storage/StorageClients.js';
import { StoreMasterRepository } from '../storage/StoreMasterRepository.js';
import { StoreRegistrationRepository } from '../storage/StoreRegistrationRepository.js';
import { TableRateLimiter } from '../storage/TableRateLimiter.js';
import { createMasterDataReports } from './createMasterDataReports.js';
import { TradeRecordHomeTable } from '../storage/TradeRecordHomeTable.js';
import { TradeRecordIndex } from '../storage/TradeRecordIndex.js';
import { UnmappedUsageRepository } from '../storage/UnmappedUsageRepository.js';
import { createBodyValidator } from '../bodyParsing/createBodyValidator.js';
import { readSchemaFolder } from '../bodyParsing/readSchemaFolder.js';
import type { AppServices } from './AppServices.js';
import { Authenticator } from './Authenticator.js';
import { CachedStoreMasterData } from './CachedStoreMasterData.js';
import { BatchSweeper } from './BatchSweeper.js';
import { MappingCatalog } from './catalog/MappingCatalog.js';
import { ProductCatalog } from './catalog/ProductCatalog.js';
import { DayReconciler } from './DayReconciler.js';
import { HealthCheck } from './HealthCheck.js';
import { PoisonQueueWatch } from './PoisonQueueWatch.js';
import { ReconcileBacklogWatch } from './ReconcileBacklogWatch.js';
import { StuckDayWatch } from './StuckDayWatch.js';
import { LostDeliveryWatch } from './webhooks/LostDeliveryWatch.js';
import { MappingQuery } from './MappingQuery.js';
import { BatchIngestion, type PushStep } from './push/BatchIngestion.js';
import { dailyCloseProcessor } from './push/dailyCloseProcessor.js';
import { mappingsProcessor } from './push/mappingsProcessor.js';
import { productsProcessor } from './push/productsProcessor.js';
import { storesProcessor } from './push/storesProcessor.js';
import { tradeRecordsProcessor } from './push/tradeRecordsProcessor.js';
import { TradeRecordMoves } from './push/TradeRecordMoves.js';
import { systemClock, type Clock } from './ports/Clock.js';
import type { ReconcileMessage } from './ReconcileMessage.js';
import { ReconciliationQuery } from './ReconciliationQuery.js';
import { ReportFragmentStager } from './reports/ReportFragmentStager.js';
import { SalesQuery } from './reports/SalesQuery.js';
import { UnmappedQuery } from './reports/UnmappedQuery.js';
import { createStoreDayReportService } from './createStoreDayReportService.js';
import { TenantGuard } from './TenantGuard.js';
import { ConcurrencyLimit } from './ConcurrencyLimit.js';
import { createClosedDayReruns } from './reruns/createClosedDayReruns.js';
import { ReconciliationSlots } from './ReconciliationSlots.js';
import { reconciliationSlotWait } from './reconciliationSlotWait.js';
import { maxConcurrentReconciliations } from './maxConcurrentReconciliations.js';
import { LateDataScheduler } from './LateDataScheduler.js';
import { BatchFailureEvents } from './webhooks/BatchFailureEvents.js';
import { EventPublisher } from './webhooks/EventPublisher.js';
import { PartnerWebhooks } from './webhooks/PartnerWebhooks.js';
import { ReconciliationEvents } from './webhooks/ReconciliationEvents.js';
import { WebhookDelivery } from './webhooks/WebhookDelivery.js';
import { WebhookRegistrar } from './webhooks/WebhookRegistrar.js';

export interface AppServicesOptions extends StorageClientOptions {
  readonly clock?: Clock;
  /** Ready-made clients (shared by several service instances in one process). */
  readonly storage?: StorageClients;
  /** Called between the write steps of every push; tests crash pushes there. */
  readonly onPushStep?: (step: PushStep, batchId: string) => Promise<void> | void;
  readonly abandonedAfterMs?: number;
  /** Where the built console is; tests build their own copy. Default: dist/console of the project. */
  readonly consoleAssetsDir?: string;
  /** Tests: resolves webhook host names (to loopback) instead of the system resolver. */
  readonly webhookResolver?: HostResolver;
  /** Tests: the certificate authority of test receivers, trusted besides the system's. */
  readonly webhookCa?: string;
  /** Tests: a shorter retry schedule, so that a day of retries takes seconds. */
  readonly webhookPolicy?: Partial<DeliveryPolicy>;
}

/** Wires repositories and services for one configuration. No I/O happens here. */
export function createAppServices(config: Config, options: AppServicesOptions = {}): AppServices {
  const clock = options.clock ?? systemClock;
  const storage = options.storage ?? createStorageClients(config, options);
  const t = storage.tables;

  const partners = new PartnerRepository(t.partners);
  const registrations = new StoreRegistrationRepository(t.storeRegistrations);
  // Per-instance memory of what a push reads about its caller (PARTNER_CACHE_SECONDS).
  const partnerCacheMs = config.partnerCacheSeconds * 1000;
  const stores = new CachedStoreMasterData(new StoreMasterRepository(t.stores), clock, partnerCacheMs);
  const products = new ProductRepository(t.products, t.modifierGroups);
  const productIds = new ProductIdRepository(t.productIds);
  const ledger = new BatchLedger(t.batchLedger);
  const rawBatches = new RawBatchStore(storage.rawBatches);
  const index = new TradeRecordIndex(t.tradeRecords);
  const closes = new DayCloseRepository(t.dailyCloses);
  const results = new ReconciliationRepository(t.reconciliations);
  const paymentDirections = new PaymentDirectionRepository(t.paymentDirections);
  const unmappedUsage = new UnmappedUsageRepository(t.unmappedUsage);
  const paymentTypeUsage = new PaymentTypeUsageRepository(t.paymentTypeUsage);
  const reconcileQueue = new JsonQueue<ReconcileMessage>(storage.queues.reconcile);
  const pendingIndex = new PendingBatchIndex(t.pendingBatches);
  const deliveryQueue = new JsonQueue<WebhookDeliveryMessage>(storage.queues.webhookDeliveries);

  const webhookRegistrations = new WebhookRegistrationRepository(t.webhooks);
  const endpointHealth = new WebhookEndpointHealthRepository(t.webhooks);
  const webhookEvents = new WebhookEventStore(t.webhookEvents);
  const deadLetters = new WebhookDeadLetterRepository(t.webhookDeadLetters);
  const policy: DeliveryPolicy = { ...deliveryPolicy, ...options.webhookPolicy };
  const guard = new WebhookTargetGuard({
    allowPrivate: config.webhookAllowPrivateTargets,
    resolve: options.webhookResolver ?? systemResolver,
  });
  const publisher = new EventPublisher({
    registrations: webhookRegistrations,
    partners,
    events: webhookEvents,
    queue: deliveryQueue,
    typePrefix: config.eventTypePrefix,
    clock,
  });
  const lateData = new LateDataScheduler({ results, reconcileQueue, delaySeconds: config.reconcileDelaySeconds, clock });

  const mappingPointers = new MappingRepository(t.mappings);
  const tenants = new TenantGuard(registrations, clock, partnerCacheMs);
  const mappingCatalog = new MappingCatalog(mappingPointers, rawBatches);
  const productCatalog = new ProductCatalog(productIds, clock);
  const closedDayReruns = createClosedDayReruns(storage, clock);
  const fragments = new ReportFragmentStore(storage.reports);
  const reportStoreDays = new ReportStoreDayRepository(t.reportStoreDays);
  const reports = createStoreDayReportService(storage, clock);
  const reportFragments = new ReportFragmentStager({ ledger, rawBatches, fragments, mappings: mappingCatalog, paymentDirections });

  const processors = {
    tradeRecords: tradeRecordsProcessor({
      stores,
      index,
      closes,
      mappings: mappingCatalog,
      products: productCatalog,
      paymentDirections,
      clock,
      rawBatches,
      reconcileQueue,
      lateData,
      moves: new TradeRecordMoves({ homes: new TradeRecordHomeTable(t.tradeRecordHomes), index, lateData, stores: tenants }),
      storeDayLimits: { maxTransactions: config.maxTransactionsPerStoreDay, maxBatches: config.maxBatchesPerStoreDay },
    }),
    dailyClose: dailyCloseProcessor({
      stores,
      closes,
      results,
      reconcileQueue,
      reconcileDelaySeconds: config.reconcileDelaySeconds,
      clock,
      elapsedMs: () => performance.now(),
    }),
    stores: storesProcessor(stores, clock),
    products: productsProcessor(products, productIds, productCatalog),
    mappings: mappingsProcessor({
      pointers: mappingPointers,
      reruns: closedDayReruns,
      clock,
    }),
  } satisfies AppServices['processors'];

  const validator = createBodyValidator(readSchemaFolder());
  const batchFailures = new BatchFailureEvents(publisher);
  const ingestion = new BatchIngestion({
    validator,
    tenants,
    ledger,
    rawBatches,
    pendingIndex,
    failedIndex: new FailedBatchIndex(t.failedBatches),
    clock,
    processors,
    abandonedAfterMs: options.abandonedAfterMs,
    onStep: options.onPushStep,
    onFailed: (batch) => batchFailures.batchFailed(batch),
  });

  return {
    config,
    clock,
    storage,
    authenticator: new Authenticator(new ApiKeyRepository(t.apiKeys), partners, clock, partnerCacheMs),
    rateLimiter: new TableRateLimiter(t.rateLimits),
    bodyBudget: new BodyBudget(config.maxRequestBytesInFlight, partnerShareOf(config.maxRequestBytesInFlight, config.maxRequestBodyBytes)),
    ingestion,
    processors,
    reconciliationQuery: new ReconciliationQuery(tenants, results, clock),
    mappingQuery: new MappingQuery(mappingCatalog),
    reconciler: new DayReconciler({
      closes,
      index,
      results,
      mappings: mappingCatalog,
      paymentDirections,
      unmappedUsage,
      paymentTypeUsage,
      clock,
      events: new ReconciliationEvents(publisher),
      reports,
    }),
    reconciliationSlots: new ReconciliationSlots(
      new ConcurrencyLimit(maxConcurrentReconciliations),
      reconcileQueue,
      reconciliationSlotWait,
    ),
    closedDayReruns,
    reports,
    masterDataReports: createMasterDataReports(storage, clock),
    salesQuery: new SalesQuery(reportStoreDays, partners),
    unmappedQuery: new UnmappedQuery(reportStoreDays, partners, unmappedUsage),
    reportFragments,
    sweeper: new BatchSweeper(ledger, pendingIndex, ingestion, processors, config.batchSweepDelaySeconds, clock, reportFragments),
    health: new HealthCheck(t.partners),
    poisonQueues: new PoisonQueueWatch(Object.values(queueNames).map((name) => storage.queueService.getQueueClient(poisonQueueName(name)))),
    reconcileBacklog: new ReconcileBacklogWatch(reconcileQueue, clock),
    stuckDays: new StuckDayWatch(results, clock),
    lostDeliveries: new LostDeliveryWatch({ events: webhookEvents, deadLetters, registrations: webhookRegistrations, policy, clock }),
    consoleAssetsDir: options.consoleAssetsDir ?? path.join(findProjectRoot(), 'dist', 'console'),
    hq: createHqServices(config, storage, clock),
    webhooks: new PartnerWebhooks(
      new WebhookRegistrar({ registrations: webhookRegistrations, health: endpointHealth, guard, clock }),
      validator,
    ),
    webhookDelivery: new WebhookDelivery({
      registrations: webhookRegistrations,
      partners,
      health: endpointHealth,
      events: webhookEvents,
      deadLetters,
      queue: deliveryQueue,
      sender: new WebhookSender({
        guard,
        timeoutMs: policy.attemptTimeoutMs,
        ...(options.webhookCa === undefined ? {} : { ca: options.webhookCa }),
      }),
      policy,
      clock,
      random: Math.random,
    }),
    batchFailures,
    rateLimitFor: (partner) => partner.rateLimitPerMinute ?? config.rateLimitPerMinute,
  };
}
