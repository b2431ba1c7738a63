import { keyStatus, type KeyStatus } from '../../services/keyStatus.js';
import type { ApiKeyRecord } from '../../storage/ApiKeyRepository.js';
import type { Partner } from '../../storage/PartnerRepository.js';
import type { StoreRegistration, StoreRegistrationStatus } from '../../storage/StoreRegistrationRepository.js';
import { hqLimits } from '../hqLimits.js';
import { mapBounded } from '../../services/mapBounded.js';
import type { ApiKeys } from '../../services/ports/ApiKeys.js';
import type { Partners } from '../../services/ports/Partners.js';
import type { PaymentDirections } from '../../services/ports/PaymentDirections.js';
import type { StoreRegistrations } from '../../services/ports/StoreRegistrations.js';
import type { StoreMasterData } from '../../services/ports/StoreMasterData.js';
import { BUILT_IN_PAYMENT_DIRECTIONS, type PaymentDirection } from '../../domain/reconciliation/paymentDirection.js';
import { requireKnownPartner } from './requireKnownPartner.js';
import { compareCodeUnits } from '../../domain/compareCodeUnits.js';

export interface PartnerBody {
  readonly partner_id: string;
  readonly name: string;
  readonly status: Partner['status'];
  readonly rate_limit_per_minute: number;
  readonly rate_limit_is_default: boolean;
  readonly created_at: string;
}

export interface StoreBody {
  readonly store_id: string;
  readonly registered_at: string | null;
  readonly store_name: string | null;
  readonly currency: string | null;
  readonly time_zone: string | null;
  readonly workday_start: string | null;
  readonly status: 'ACTIVE' | 'INACTIVE' | null;
  /** HQ's side: RETIRED when HQ took the store away (`status` is the partner's master data). */
  readonly registration_status: StoreRegistrationStatus;
  readonly retired_at: string | null;
}

export interface KeyBody {
  readonly key_id: string;
  readonly status: KeyStatus;
  readonly created_at: string;
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
}

/** A page of a list kept in memory: items after the cursor, and the cursor after the page. */
export interface ListPage<T> {
  readonly items: T[];
  readonly next: string | undefined;
}

/**
 * Partners, their registered stores, keys (never a key or hash) and payment directions, for HQ.
 * These lists are small (HQ registers every entry), so each is read whole, ordered, and paged by the
 * sort key of the last item.
 */
export class PartnerDirectory {
  constructor(
    private readonly partners: Partners,
    private readonly registrations: StoreRegistrations,
    private readonly stores: StoreMasterData,
    private readonly keys: ApiKeys,
    private readonly directions: PaymentDirections,
    private readonly defaultRateLimit: number,
    private readonly clock: () => Date,
  ) {}

  async listPartners(limit: number, after: string | undefined): Promise<ListPage<PartnerBody>> {
    const partners = (await this.partners.list()).map((p) => this.partnerBody(p));
    return pageOf(partners, (p) => p.partner_id, limit, after);
  }

  async getPartner(partnerId: string): Promise<PartnerBody> {
    return this.partnerBody(await this.requirePartner(partnerId));
  }

  async listStores(partnerId: string, limit: number, after: string | undefined): Promise<ListPage<StoreBody>> {
    await this.requirePartner(partnerId);
    const page = pageOf(await this.registrations.listRegistrations(partnerId), (r) => r.storeId, limit, after);
    const items = await mapBounded(page.items, hqLimits.gridConcurrency, (registration) => this.storeBody(partnerId, registration));
    return { items, next: page.next };
  }

  /** A registered store with its master data, as the store list shows it. */
  async storeBody(partnerId: string, registration: StoreRegistration): Promise<StoreBody> {
    const store = await this.stores.get(partnerId, registration.storeId);
    return {
      store_id: registration.storeId,
      registered_at: registration.registeredAt,
      store_name: store?.store_name ?? null,
      currency: store?.currency ?? null,
      time_zone: store?.time_zone ?? null,
      workday_start: store?.workday_start ?? null,
      status: store?.status ?? null,
      registration_status: registration.status,
      retired_at: registration.retiredAt,
    };
  }

  async listKeys(partnerId: string, limit: number, after: string | undefined): Promise<ListPage<KeyBody>> {
    await this.requirePartner(partnerId);
    const keys = (await this.keys.listForPartner(partnerId)).map((k) => this.keyBody(k));
    return pageOf(keys, (k) => `${k.created_at}|${k.key_id}`, limit, after);
  }

  async listPaymentDirections(
    partnerId: string,
    limit: number,
    after: string | undefined,
  ): Promise<ListPage<{ payment_type: string; direction: PaymentDirection }>> {
    await this.requirePartner(partnerId);
    // A built-in code set before such codes were refused is left out: its own direction counts.
    const directions = [...(await this.directions.listForPartner(partnerId))]
      .filter(([paymentType]) => !BUILT_IN_PAYMENT_DIRECTIONS.has(paymentType))
      .map(([paymentType, direction]) => ({ payment_type: paymentType, direction }));
    return pageOf(directions, (d) => d.payment_type, limit, after);
  }

  partnerBody(partner: Partner): PartnerBody {
    return {
      partner_id: partner.partnerId,
      name: partner.name,
      status: partner.status,
      rate_limit_per_minute: partner.rateLimitPerMinute ?? this.defaultRateLimit,
      rate_limit_is_default: partner.rateLimitPerMinute === undefined,
      created_at: partner.createdAt,
    };
  }

  keyBody(key: ApiKeyRecord): KeyBody {
    return {
      key_id: key.keyId,
      status: keyStatus(key, this.clock()),
      created_at: key.createdAt,
      expires_at: key.expiresAt ?? null,
      revoked_at: key.revokedAt ?? null,
    };
  }

  /**
   * Throws 404 PARTNER_NOT_FOUND when a list is filtered by a partner that does not exist, so that
   * a mistyped id is not answered as an empty list.
   */
  async requireFilterPartner(partnerId: string | undefined): Promise<void> {
    if (partnerId !== undefined) await this.requirePartner(partnerId);
  }

  private requirePartner(partnerId: string): Promise<Partner> {
    return requireKnownPartner(this.partners, partnerId);
  }
}

/** Orders by `sortKey` (code-unit order) and returns up to `limit` items after `after`. */
function pageOf<T>(all: readonly T[], sortKey: (item: T) => string, limit: number, after: string | undefined): ListPage<T> {
  const sorted = all.map((item) => ({ item, key: sortKey(item) })).sort((a, b) => compareCodeUnits(a.key, b.key));
  const rest = after === undefined ? sorted : sorted.filter((entry) => entry.key > after);
  const page = rest.slice(0, limit);
  const last = page[page.length - 1];
  return { items: page.map((entry) => entry.item), next: rest.length > limit && last ? last.key : undefined };
}
