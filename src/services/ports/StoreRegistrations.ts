import type { StoreRegistration, StoreRegistrationStatus } from '../../storage/StoreRegistrationRepository.js';

/** Which stores HQ registered for which partner, and whether each is retired: the basis of tenant isolation. */
export interface StoreRegistrations {
  /** The store's registration; undefined when it is not registered for the partner. */
  getRegistration(partnerId: string, storeId: string): Promise<StoreRegistration | undefined>;
  /** The status of each of `storeIds` registered for the partner; an id not registered is absent. */
  statusesAmong(partnerId: string, storeIds: Iterable<string>): Promise<Map<string, StoreRegistrationStatus>>;
  /** Registers stores (ACTIVE); returns the ids that were new. A store registered already keeps its status. */
  register(partnerId: string, storeIds: readonly string[], now: Date): Promise<string[]>;
  /**
   * Retires a registered store (noting when) or makes it ACTIVE again; one that has the status
   * already is left as it is. The registration as it now stands; undefined when not registered.
   */
  setStatus(partnerId: string, storeId: string, status: StoreRegistrationStatus, now: Date): Promise<StoreRegistration | undefined>;
  /** The partner's stores with when each was registered (null for registrations older than that field) and their status, by store id. */
  listRegistrations(partnerId: string): Promise<StoreRegistration[]>;
}
