import type { UnmappedUsage } from '../../storage/UnmappedUsageRepository.js';

/** Closed store-days that used source codes without a mapping, so a later mapping can re-run them. */
export interface UnmappedCodes {
  record(partnerId: string, storeId: string, businessDate: string, sourceCodes: Iterable<string>): Promise<void>;
  listForPartner(partnerId: string): Promise<UnmappedUsage[]>;
  /** Forgetting a usage that is already gone is fine. */
  remove(partnerId: string, usage: UnmappedUsage): Promise<void>;
}
