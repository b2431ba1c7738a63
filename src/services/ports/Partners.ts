import type { Partner, PartnerStatus } from '../../storage/PartnerRepository.js';

/** Partner accounts, one per partner id. */
export interface Partners {
  get(partnerId: string): Promise<Partner | undefined>;
  /** False when the id is already taken. */
  create(partnerId: string, name: string, now: Date): Promise<boolean>;
  /** False when there is no such partner. */
  update(partnerId: string, changes: { status?: PartnerStatus; rateLimitPerMinute?: number }): Promise<boolean>;
  /** Every partner, in no set order (HQ reports read across all of them). */
  list(): Promise<Partner[]>;
}
