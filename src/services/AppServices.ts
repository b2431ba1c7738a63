import type { Config } from '../config/Config.js';
import type { HqServices } from '../hq/HqServices.js';
import type { BodyBudget } from '../http/BodyBudget.js';
import type { Partner } from '../storage/PartnerRepository.js';
import type { StorageClients } from '../storage/StorageClients.js';
import type { BatchKind } from '../domain/model/BatchKind.js';
import type { Authenticator } from './Authenticator.js';
import type { BatchSweeper } from './BatchSweeper.js';
import type { Clock } from './ports/Clock.js';
import type { DayReconciler } from './DayReconciler.js';
import type { HealthCheck } from './HealthCheck.js';
import type { PoisonQueueWatch } from './PoisonQueueWatch.js';
import type { ReconcileBacklogWatch } from './ReconcileBacklogWatch.js';
import type { StuckDayWatch } from './StuckDayWatch.js';
import type { LostDeliveryWatch } from './webhooks/LostDeliveryWatch.js';
import type { MappingQuery } from './MappingQuery.js';
import type { BatchIngestion } from './push/BatchIngestion.js';
import type { RateLimiter } from './ports/RateLimiter.js';
import type { BatchProcessor } from './push/BatchProcessor.js';
import type { ReconciliationQuery } from './ReconciliationQuery.js';
import type { BatchFailureEvents } from './webhooks/BatchFailureEvents.js';
import type { PartnerWebhooks } from './webhooks/PartnerWebhooks.js';
import type { WebhookDelivery } from './webhooks/WebhookDelivery.js';
import type { ReportFragmentStager } from './reports/ReportFragmentStager.js';
import type { SalesQuery } from './reports/SalesQuery.js';
import type { UnmappedQuery } from './reports/UnmappedQuery.js';
import type { MasterDataReports } from './reports/MasterDataReports.js';
import type { StoreDayReportService } from './reports/StoreDayReportService.js';
import type { ReconciliationSlots } from './ReconciliationSlots.js';
import type { ClosedDayReruns } from './reruns/ClosedDayReruns.js';

/** The caller of a partner route, as the adapters see it. */
export type { Partner };

/** Everything the function handlers need, built once per process by `createAppServices`. */
export interface AppServices {
  readonly config: Config;
  readonly clock: Clock;
  readonly storage: StorageClients;
  readonly authenticator: Authenticator;
  readonly rateLimiter: RateLimiter;
  /** Request body bytes this instance holds at once. */
  readonly bodyBudget: BodyBudget;
  readonly ingestion: BatchIngestion;
  readonly processors: Readonly<Record<BatchKind, BatchProcessor<{ batch_id: string }>>>;
  readonly reconciliationQuery: ReconciliationQuery;
  readonly mappingQuery: MappingQuery;
  readonly reconciler: DayReconciler;
  /** Reconciliations this process runs at once (`maxConcurrentReconciliations`); a message waits for a slot up to `reconciliationSlotWait`, then is sent again. */
  readonly reconciliationSlots: ReconciliationSlots;
  /** Reconciles closed days again after a mapping upload or a direction change, a page per message. */
  readonly closedDayReruns: ClosedDayReruns;
  /** The report files of reconciled store-days (written by the reconciler; rebuilt by the HQ tool). */
  readonly reports: StoreDayReportService;
  /** The `stores`, `products` and `transaction_type_mappings` report files of each partner, written by a timer. */
  readonly masterDataReports: MasterDataReports;
  /** HQ's sales totals and held-back codes, from the totals written with the report files. */
  readonly salesQuery: SalesQuery;
  readonly unmappedQuery: UnmappedQuery;
  /** Converts committed trade-record batches into report fragments in the background. */
  readonly reportFragments: ReportFragmentStager;
  readonly sweeper: BatchSweeper;
  readonly health: HealthCheck;
  readonly poisonQueues: PoisonQueueWatch;
  readonly reconcileBacklog: ReconcileBacklogWatch;
  readonly stuckDays: StuckDayWatch;
  readonly lostDeliveries: LostDeliveryWatch;
  /** Folder of the built HQ console (dist/console), served at /console/. */
  readonly consoleAssetsDir: string;
  /** The HQ API's services (operator keys, grid, day detail, partners, admin actions). */
  readonly hq: HqServices;
  /** A partner's webhook endpoint (PUT/GET/DELETE /webhook, rotate-secret). */
  readonly webhooks: PartnerWebhooks;
  /** Runs one message of the webhook delivery queue. */
  readonly webhookDelivery: WebhookDelivery;
  /** What the batch ledger's failure path calls when a batch ends FAILED. */
  readonly batchFailures: BatchFailureEvents;
  /** /trade-records calls a partner may make per minute. */
  readonly rateLimitFor: (partner: Partner) => number;
}
