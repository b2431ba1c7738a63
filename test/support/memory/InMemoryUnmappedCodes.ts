import type { NotePage } from '../../../src/services/ports/NotePage.js';
import type { UnmappedCodes } from '../../../src/services/ports/UnmappedCodes.js';
import type { UnmappedUsage } from '../../../src/storage/UnmappedUsageRepository.js';
import { pageOfSorted } from './pageOfSorted.js';

/** Unmapped-code usages in a map, each write a new version, for unit tests of services. */
export class InMemoryUnmappedCodes implements UnmappedCodes {
  /** partner → code, store and day → usage */
  private readonly usages = new Map<string, Map<string, UnmappedUsage>>();
  private writes = 0;

  record(partnerId: string, storeId: string, businessDate: string, sourceCodes: Iterable<string>): Promise<void> {
    const ofPartner = this.usages.get(partnerId) ?? new Map<string, UnmappedUsage>();
    for (const sourceCode of sourceCodes) {
      this.writes += 1;
      ofPartner.set(JSON.stringify([sourceCode, storeId, businessDate]), { sourceCode, storeId, businessDate, etag: String(this.writes) });
    }
    this.usages.set(partnerId, ofPartner);
    return Promise.resolve();
  }

  listPage(partnerId: string, after: string | undefined, max: number): Promise<NotePage<UnmappedUsage>> {
    return pageOfSorted(this.usages.get(partnerId) ?? [], after, max);
  }

  remove(partnerId: string, usage: UnmappedUsage): Promise<void> {
    const ofPartner = this.usages.get(partnerId);
    const key = JSON.stringify([usage.sourceCode, usage.storeId, usage.businessDate]);
    if (ofPartner?.get(key)?.etag === usage.etag) ofPartner.delete(key);
    return Promise.resolve();
  }
}
