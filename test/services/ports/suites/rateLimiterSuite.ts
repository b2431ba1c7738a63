import { expect, it } from 'vitest';
import type { RateLimiter } from '../../../../src/services/ports/RateLimiter.js';
import { freshPartnerId } from './freshIds.js';

const minute = Date.parse('2026-03-01T10:07:00Z');

/** What every RateLimiter implementation does. */
export function rateLimiterSuite(make: () => Promise<RateLimiter>): void {
  it('allows the limit per partner per minute, then says when the next minute starts', async () => {
    const limiter = await make();
    const partnerId = freshPartnerId();
    for (let i = 0; i < 3; i++) expect(await limiter.take(partnerId, 3, new Date(minute + i * 1000))).toEqual({ allowed: true });
    expect(await limiter.take(partnerId, 3, new Date(minute + 45_500))).toEqual({ allowed: false, retryAfterSeconds: 15 });
    expect(await limiter.take(freshPartnerId(), 3, new Date(minute + 45_500))).toEqual({ allowed: true });
    expect(await limiter.take(partnerId, 3, new Date(minute + 60_000))).toEqual({ allowed: true });
  });

  it('keeps the current window when pruning: a partner at its limit stays at it', async () => {
    const limiter = await make();
    const partnerId = freshPartnerId();
    for (let i = 0; i < 2; i++) expect((await limiter.take(partnerId, 2, new Date(minute + i))).allowed).toBe(true);
    await limiter.prune(new Date(minute + 59_000));
    expect(await limiter.take(partnerId, 2, new Date(minute + 59_500))).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });
}
