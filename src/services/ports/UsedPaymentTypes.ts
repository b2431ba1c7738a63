import type { PaymentTypeUsage } from '../../storage/PaymentTypeUsageRepository.js';

/**
 * Closed store-days that used partner payment types (unknown, or with the direction HQ
 * registered), so that a direction HQ sets later can re-run them.
 */
export interface UsedPaymentTypes {
  /** Notes the day's use of each type; noting it again makes a new note (its etag changes). */
  record(partnerId: string, storeId: string, businessDate: string, paymentTypes: Iterable<string>): Promise<void>;
  /** The days noted for one payment type, each with its note's etag. */
  listDays(partnerId: string, paymentType: string): Promise<PaymentTypeUsage[]>;
  /**
   * Forgets a note as it was listed. One already gone, or noted again since (a later run of the
   * day still uses the type), is left as it is.
   */
  remove(partnerId: string, usage: PaymentTypeUsage): Promise<void>;
}
