import { ApiError } from '../errors/ApiError.js';
import type { StoreRegistrations } from './ports/StoreRegistrations.js';

/**
 * A partner may name only the stores HQ registered for it, on every push and every query
 * (contract §5.5). Whether another partner has a store of that id is never revealed.
 */
export class TenantGuard {
  constructor(private readonly registrations: StoreRegistrations) {}

  async requireStores(partnerId: string, storeIds: Iterable<string>): Promise<void> {
    const unregistered = await this.registrations.unregisteredAmong(partnerId, storeIds);
    if (unregistered.length > 0) {
      throw new ApiError('STORE_NOT_ALLOWED', `${unregistered.length} store_id value(s) are not registered for this partner.`);
    }
  }
}
