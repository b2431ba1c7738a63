import type { RateDecision } from '../../storage/TableRateLimiter.js';

/** Calls per partner per one-minute window, shared by every instance of the service. */
export interface RateLimiter {
  take(partnerId: string, limitPerMinute: number, now: Date): Promise<RateDecision>;
}
