import type { UnmappedUsage } from '../../storage/UnmappedUsageRepository.js';
import type { NotePage } from './NotePage.js';

/** Closed store-days that used source codes without a mapping, so a later mapping can re-run them. */
export interface UnmappedCodes {
  /** Notes the day's use of each code; noting one again makes a new note (its etag changes). */
  record(partnerId: string, storeId: string, businessDate: string, sourceCodes: Iterable<string>): Promise<void>;
  /** At most `max` of a partner's usages, each with its note's etag, in key order, starting after `after` (the `next` of the page before). */
  listPage(partnerId: string, after: string | undefined, max: number): Promise<NotePage<UnmappedUsage>>;
  /**
   * Forgets a note as it was listed. One already gone, or noted again since (a later run of the day
   * still holds the code back), is left as it is.
   */
  remove(partnerId: string, usage: UnmappedUsage): Promise<void>;
}
