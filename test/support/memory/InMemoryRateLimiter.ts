import type { PruneOutcome, RateDecision } from '../../../src/storage/TableRateLimiter.js';
import type { RateLimiter } from '../../../src/services/ports/RateLimiter.js';

const windowMs = 60_000;

/** Fixed one-minute windows counted in a map, for unit tests of services. */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly counts = new Map<string, { readonly windowStart: number; readonly count: number }>();

  take(partnerId: string, limitPerMinute: number, now: Date): Promise<RateDecision> {
    const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
    const k = JSON.stringify([partnerId, windowStart]);
    const count = this.counts.get(k)?.count ?? 0;
    if (count < limitPerMinute) {
      this.counts.set(k, { windowStart, count: count + 1 });
      return Promise.resolve({ allowed: true });
    }
    return Promise.resolve({ allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now.getTime()) / 1000)) });
  }

  prune(now: Date): Promise<PruneOutcome> {
    const oldestKept = (Math.floor(now.getTime() / windowMs) - 5) * windowMs;
    let removed = 0;
    for (const [k, { windowStart }] of this.counts) {
      if (windowStart < oldestKept) {
        this.counts.delete(k);
        removed += 1;
      }
    }
    return Promise.resolve({ removed, stoppedAtBudget: false });
  }
}
