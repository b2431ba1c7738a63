import type { Partner, PartnerStatus } from '../../../src/storage/PartnerRepository.js';
import type { Partners } from '../../../src/services/ports/Partners.js';

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

  update(partnerId: string, changes: { status?: PartnerStatus; rateLimitPerMinute?: number }): Promise<boolean> {
    const current = this.byId.get(partnerId);
    if (!current) return Promise.resolve(false);
    this.byId.set(partnerId, { ...current, ...changes });
    return Promise.resolve(true);
  }

  list(): Promise<Partner[]> {
    return Promise.resolve([...this.byId.values()]);
  }
}
