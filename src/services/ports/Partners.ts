import type { Partner, PartnerStatus } from '../../storage/PartnerRepository.js';

/** Partner accounts, one per partner id. */
export interface Partners {
  get(partnerId: string): Promise<Partner | undefined>;
  /** False when the id is already taken. */
  create(partnerId: string, name: string, now: Date): Promise<boolean>;
  /** False when there is no such partner. A rateLimitPerMinute of null puts the partner back on the default. */
  update(partnerId: string, changes: PartnerChanges): Promise<boolean>;
  /** Every partner, in no set order (HQ reports read across all of them). */
  list(): Promise<Partner[]>;
}

export interface PartnerChanges {
  readonly status?: PartnerStatus;
  /** The partner's own limit; null: the default (RATE_LIMIT_PER_MINUTE) again. */
  readonly rateLimitPerMinute?: number | null;
}
