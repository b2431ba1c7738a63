import type { StoreRegistration } from '../../storage/StoreRegistrationRepository.js';

/** Which stores HQ registered for which partner: the basis of tenant isolation. */
export interface StoreRegistrations {
  isRegistered(partnerId: string, storeId: string): Promise<boolean>;
  /** The store's registration; undefined when it is not registered for the partner. */
  getRegistration(partnerId: string, storeId: string): Promise<StoreRegistration | undefined>;
  /** The subset of `storeIds` that is not registered for the partner, each id once. */
  unregisteredAmong(partnerId: string, storeIds: Iterable<string>): Promise<string[]>;
  /** Returns the ids that were new. */
  register(partnerId: string, storeIds: readonly string[], now: Date): Promise<string[]>;
  listForPartner(partnerId: string): Promise<string[]>;
  /** The partner's stores with when each was registered (null for registrations older than that field), by store id. */
  listRegistrations(partnerId: string): Promise<StoreRegistration[]>;
}
