import type { PaymentDirection } from '../../domain/reconciliation/paymentDirection.js';
import { ApiError } from '../../errors/ApiError.js';
import type { ApiKeyRecord } from '../../storage/ApiKeyRepository.js';
import type { Partner, PartnerStatus } from '../../storage/PartnerRepository.js';
import type { StoreRegistration, StoreRegistrationStatus } from '../../storage/StoreRegistrationRepository.js';
import type { ApiKeys } from '../../services/ports/ApiKeys.js';
import type { Partners } from '../../services/ports/Partners.js';
import type { ClosedDayReruns } from '../../services/reruns/ClosedDayReruns.js';
import type { PaymentDirections } from '../../services/ports/PaymentDirections.js';
import type { StoreRegistrations } from '../../services/ports/StoreRegistrations.js';
import { requireKnownPartner } from './requireKnownPartner.js';

/**
 * HQ's changes to a partner's account: store registrations and their status, payment directions,
 * status, key revocation. The HQ tool and the HQ API both act through this class, so both follow
 * one set of rules. Every action is idempotent.
 */
export class PartnerAdmin {
  constructor(
    private readonly partners: Partners,
    private readonly registrations: StoreRegistrations,
    private readonly directions: PaymentDirections,
    private readonly reruns: Pick<ClosedDayReruns, 'afterDirectionSet'>,
    private readonly keys: ApiKeys,
    private readonly clock: () => Date,
  ) {}

  /** Registers stores; which were new and which were registered already. */
  async registerStores(partnerId: string, storeIds: readonly string[]): Promise<{ registered: string[]; alreadyRegistered: string[] }> {
    await this.requirePartner(partnerId);
    const unique = [...new Set(storeIds)];
    const registered = await this.registrations.register(partnerId, unique, this.clock());
    const created = new Set(registered);
    return { registered, alreadyRegistered: unique.filter((s) => !created.has(s)) };
  }

  /**
   * Retires a registered store (its partner's pushes for it are refused from then on) or makes it
   * ACTIVE again; nothing the store sent is removed. The registration as it now stands; 404
   * STORE_NOT_FOUND when the store is not registered for this partner, whoever else has it.
   */
  async setStoreStatus(partnerId: string, storeId: string, status: StoreRegistrationStatus): Promise<StoreRegistration> {
    await this.requirePartner(partnerId);
    const registration = await this.registrations.setStatus(partnerId, storeId, status, this.clock());
    if (!registration) throw new ApiError('STORE_NOT_FOUND');
    return registration;
  }

  /**
   * Sets the direction, then queues the reconciliation again of the closed days that used the type,
   * which runs in the background. It is queued even when the direction was already this one: a
   * request that failed after storing it may not have queued it, and sending it again does.
   */
  async setPaymentDirection(partnerId: string, paymentType: string, direction: PaymentDirection): Promise<void> {
    await this.requirePartner(partnerId);
    await this.directions.set(partnerId, paymentType, direction, this.clock());
    await this.reruns.afterDirectionSet(partnerId, paymentType);
  }

  /** Sets the partner's status; the partner as it now stands. */
  async setStatus(partnerId: string, status: PartnerStatus): Promise<Partner> {
    if (!(await this.partners.update(partnerId, { status }))) throw new ApiError('PARTNER_NOT_FOUND');
    return this.requirePartner(partnerId);
  }

  /** Revokes a partner key (already revoked: unchanged); the key as it now stands. */
  async revokeKey(partnerId: string, keyId: string): Promise<ApiKeyRecord> {
    await this.requirePartner(partnerId);
    const key = (await this.keys.listForPartner(partnerId)).find((k) => k.keyId === keyId);
    if (!key) throw new ApiError('KEY_NOT_FOUND');
    if (key.status === 'REVOKED') return key;
    await this.keys.revoke(partnerId, keyId, this.clock());
    // As stored: of revocations side by side, the first one's time stands.
    const revoked = await this.keys.findByHash(key.keyHash);
    if (!revoked) throw new ApiError('KEY_NOT_FOUND');
    return revoked;
  }

  private requirePartner(partnerId: string): Promise<Partner> {
    return requireKnownPartner(this.partners, partnerId);
  }
}
