import type { StoreRegistrations } from '../../../src/services/ports/StoreRegistrations.js';

/** Store registrations in a set per partner, for unit tests of services. */
export class InMemoryStoreRegistrations implements StoreRegistrations {
  private readonly byPartner = new Map<string, Set<string>>();

  isRegistered(partnerId: string, storeId: string): Promise<boolean> {
    return Promise.resolve(this.byPartner.get(partnerId)?.has(storeId) ?? false);
  }

  unregisteredAmong(partnerId: string, storeIds: Iterable<string>): Promise<string[]> {
    const registered = this.byPartner.get(partnerId) ?? new Set();
    return Promise.resolve([...new Set(storeIds)].filter((id) => !registered.has(id)));
  }

  register(partnerId: string, storeIds: readonly string[], _now: Date): Promise<string[]> {
    const registered = this.byPartner.get(partnerId) ?? new Set<string>();
    this.byPartner.set(partnerId, registered);
    const created = [...new Set(storeIds)].filter((id) => !registered.has(id));
    for (const id of created) registered.add(id);
    return Promise.resolve(created);
  }

  listForPartner(partnerId: string): Promise<string[]> {
    return Promise.resolve([...(this.byPartner.get(partnerId) ?? [])]);
  }
}
