import type { StoreRegistrations } from '../../../src/services/ports/StoreRegistrations.js';
import type { StoreRegistration, StoreRegistrationStatus } from '../../../src/storage/StoreRegistrationRepository.js';

/** Store registrations in a map per partner (store id → registration), for unit tests of services. */
export class InMemoryStoreRegistrations implements StoreRegistrations {
  private readonly byPartner = new Map<string, Map<string, StoreRegistration>>();

  getRegistration(partnerId: string, storeId: string): Promise<StoreRegistration | undefined> {
    return Promise.resolve(this.byPartner.get(partnerId)?.get(storeId));
  }

  statusesAmong(partnerId: string, storeIds: Iterable<string>): Promise<Map<string, StoreRegistrationStatus>> {
    const registered = this.byPartner.get(partnerId) ?? new Map<string, StoreRegistration>();
    const statuses = new Map<string, StoreRegistrationStatus>();
    for (const id of storeIds) {
      const registration = registered.get(id);
      if (registration) statuses.set(id, registration.status);
    }
    return Promise.resolve(statuses);
  }

  register(partnerId: string, storeIds: readonly string[], now: Date): Promise<string[]> {
    const registered = this.byPartner.get(partnerId) ?? new Map<string, StoreRegistration>();
    this.byPartner.set(partnerId, registered);
    const created = [...new Set(storeIds)].filter((id) => !registered.has(id));
    for (const id of created) registered.set(id, { storeId: id, registeredAt: now.toISOString(), status: 'ACTIVE', retiredAt: null });
    return Promise.resolve(created);
  }

  setStatus(partnerId: string, storeId: string, status: StoreRegistrationStatus, now: Date): Promise<StoreRegistration | undefined> {
    const registered = this.byPartner.get(partnerId);
    const current = registered?.get(storeId);
    if (!registered || !current || current.status === status) return Promise.resolve(current);
    const next = { ...current, status, retiredAt: status === 'RETIRED' ? now.toISOString() : null };
    registered.set(storeId, next);
    return Promise.resolve(next);
  }

  listRegistrations(partnerId: string): Promise<StoreRegistration[]> {
    const registered = [...(this.byPartner.get(partnerId)?.values() ?? [])];
    return Promise.resolve(registered.sort((a, b) => (a.storeId < b.storeId ? -1 : a.storeId > b.storeId ? 1 : 0)));
  }
}
