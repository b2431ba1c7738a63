import type { PaymentTypeUsage } from '../../storage/PaymentTypeUsageRepository.js';
import type { NotePage } from './NotePage.js';

/**
 * Closed store-days that used partner payment types (unknown, or with the direction HQ
 * registered), so that a direction HQ sets later can re-run them.
 */
export interface UsedPaymentTypes {
  /** Notes the day's use of each type; noting it again makes a new note (its etag changes). */
  record(partnerId: string, storeId: string, businessDate: string, paymentTypes: Iterable<string>): Promise<void>;
  /**
   * At most `max` of the days noted for one payment type, each with its note's etag, in key order,
   * starting after `after` (the `next` of the page before).
   */
  listDaysPage(partnerId: string, paymentType: string, after: string | undefined, max: number): Promise<NotePage<PaymentTypeUsage>>;
  /**
   * Forgets a note as it was listed. One already gone, or noted again since (a later run of the
   * day still uses the type), is left as it is.
   */
  remove(partnerId: string, usage: PaymentTypeUsage): Promise<void>;
}
