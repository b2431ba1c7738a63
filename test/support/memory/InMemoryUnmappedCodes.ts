import type { UnmappedUsage } from '../../../src/storage/UnmappedUsageRepository.js';
import type { UnmappedCodes } from '../../../src/services/ports/UnmappedCodes.js';

/** Unmapped-code usages in a map, for unit tests of services. */
export class InMemoryUnmappedCodes implements UnmappedCodes {
  private readonly usages = new Map<string, { partnerId: string; usage: UnmappedUsage }>();

  record(partnerId: string, storeId: string, businessDate: string, sourceCodes: Iterable<string>): Promise<void> {
    for (const sourceCode of sourceCodes) {
      this.usages.set(JSON.stringify([partnerId, sourceCode, storeId, businessDate]), {
        partnerId,
        usage: { sourceCode, storeId, businessDate },
      });
    }
    return Promise.resolve();
  }

  listForPartner(partnerId: string): Promise<UnmappedUsage[]> {
    return Promise.resolve([...this.usages.values()].filter((u) => u.partnerId === partnerId).map((u) => u.usage));
  }

  remove(partnerId: string, usage: UnmappedUsage): Promise<void> {
    this.usages.delete(JSON.stringify([partnerId, usage.sourceCode, usage.storeId, usage.businessDate]));
    return Promise.resolve();
  }
}
