import type { UnmappedUsage } from '../../storage/UnmappedUsageRepository.js';
import type { NotePage } from './NotePage.js';

/** Closed store-days that used source codes without a mapping, so a later mapping can re-run them. */
export interface UnmappedCodes {
  record(partnerId: string, storeId: string, businessDate: string, sourceCodes: Iterable<string>): Promise<void>;
  /** At most `max` of a partner's usages, in key order, starting after `after` (the `next` of the page before). */
  listPage(partnerId: string, after: string | undefined, max: number): Promise<NotePage<UnmappedUsage>>;
  /** Forgetting a usage that is already gone is fine. */
  remove(partnerId: string, usage: UnmappedUsage): Promise<void>;
}
