import type { Partner } from '../../../src/storage/PartnerRepository.js';
import type { Partners } from '../../../src/services/ports/Partners.js';
import type { PartnerChanges } from '../../../src/services/ports/Partners.js';

/** Partners in a map, for unit tests of services. */
export class InMemoryPartners implements Partners {
  private readonly byId = new Map<string, Partner>();

  get(partnerId: string): Promise<Partner | undefined> {
    return Promise.resolve(this.byId.get(partnerId));
  }

  create(partnerId: string, name: string, now: Date): Promise<boolean> {
    if (this.byId.has(partnerId)) return Promise.resolve(false);
    this.byId.set(partnerId, { partnerId, name, status: 'ACTIVE', rateLimitPerMinute: undefined, createdAt: now.toISOString() });
    return Promise.resolve(true);
  }

  update(partnerId: string, changes: PartnerChanges): Promise<boolean> {
    const current = this.byId.get(partnerId);
    if (!current) return Promise.resolve(false);
    const { rateLimitPerMinute, ...rest } = changes;
    const limit = rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: rateLimitPerMinute ?? undefined };
    this.byId.set(partnerId, { ...current, ...rest, ...limit });
    return Promise.resolve(true);
  }

  list(): Promise<Partner[]> {
    return Promise.resolve([...this.byId.values()]);
  }
}
