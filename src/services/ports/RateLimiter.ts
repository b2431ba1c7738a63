import type { PruneOutcome, RateDecision } from '../../storage/TableRateLimiter.js';

/** Calls per partner per one-minute window, shared by every instance of the service. */
export interface RateLimiter {
  take(partnerId: string, limitPerMinute: number, now: Date): Promise<RateDecision>;
  /** Forgets windows that ended a few minutes before `now`, never the current one; says how many, and whether it stopped at its time budget. */
  prune(now: Date): Promise<PruneOutcome>;
}
