import type { HqRequestValidator } from './http/HqRequestValidator.js';
import type { BatchList } from './services/BatchList.js';
import type { DeadLetterList } from './services/DeadLetterList.js';
import type { OperatorAuthenticator } from './services/OperatorAuthenticator.js';
import type { PartnerAdmin } from './services/PartnerAdmin.js';
import type { PartnerDirectory } from './services/PartnerDirectory.js';
import type { ReportTotals } from './services/ReportTotals.js';
import type { StoreDayDetail } from './services/StoreDayDetail.js';
import type { StoreDayGrid } from './services/StoreDayGrid.js';

/** What the HQ API's handlers use, built once per process beside the partner API's services. */
export interface HqServices {
  readonly authenticator: OperatorAuthenticator;
  readonly validator: HqRequestValidator;
  readonly grid: StoreDayGrid;
  readonly dayDetail: StoreDayDetail;
  readonly batches: BatchList;
  readonly directory: PartnerDirectory;
  readonly admin: PartnerAdmin;
  /** Sales totals and unmapped codes from the report data. */
  readonly reports: ReportTotals;
  /** Webhook deliveries given up. */
  readonly deadLetters: DeadLetterList;
  /** The time the checks of a request go by (the business-date window). */
  readonly clock: () => Date;
}
