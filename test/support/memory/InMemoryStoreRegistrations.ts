import type { StoreRegistrations } from '../../../src/services/ports/StoreRegistrations.js';
import type { StoreRegistration } from '../../../src/storage/StoreRegistrationRepository.js';

/** Store registrations in a map per partner (store id → when), for unit tests of services. */
export class InMemoryStoreRegistrations implements StoreRegistrations {
  private readonly byPartner = new Map<string, Map<string, string>>();

  isRegistered(partnerId: string, storeId: string): Promise<boolean> {
    return Promise.resolve(this.byPartner.get(partnerId)?.has(storeId) ?? false);
  }

  getRegistration(partnerId: string, storeId: string): Promise<StoreRegistration | undefined> {
    const registeredAt = this.byPartner.get(partnerId)?.get(storeId);
    return Promise.resolve(registeredAt === undefined ? undefined : { storeId, registeredAt });
  }

  unregisteredAmong(partnerId: string, storeIds: Iterable<string>): Promise<string[]> {
    const registered = this.byPartner.get(partnerId) ?? new Map<string, string>();
    return Promise.resolve([...new Set(storeIds)].filter((id) => !registered.has(id)));
  }

  register(partnerId: string, storeIds: readonly string[], now: Date): Promise<string[]> {
    const registered = this.byPartner.get(partnerId) ?? new Map<string, string>();
    this.byPartner.set(partnerId, registered);
    const created = [...new Set(storeIds)].filter((id) => !registered.has(id));
    for (const id of created) registered.set(id, now.toISOString());
    return Promise.resolve(created);
  }

  listForPartner(partnerId: string): Promise<string[]> {
    return Promise.resolve([...(this.byPartner.get(partnerId)?.keys() ?? [])]);
  }

  listRegistrations(partnerId: string): Promise<StoreRegistration[]> {
    const registered = [...(this.byPartner.get(partnerId) ?? new Map<string, string>())];
    const sorted = registered.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Promise.resolve(sorted.map(([storeId, registeredAt]) => ({ storeId, registeredAt })));
  }
}
