import { expect, it } from 'vitest';
import type { WebhookEndpointHealth } from '../../../../src/services/ports/WebhookEndpointHealth.js';
import { freshPartnerId } from './freshIds.js';

const now = new Date('2026-03-01T10:00:00Z');

/** What every WebhookEndpointHealth implementation does. */
export function webhookEndpointHealthSuite(make: () => Promise<WebhookEndpointHealth>): void {
  it('is healthy (nothing) until a failure, counts failures in a row, and resets', async () => {
    const health = await make();
    const partner = freshPartnerId();
    expect(await health.get(partner)).toBeUndefined();
    const pause = new Date(now.getTime() + 20_000);
    expect(await health.recordFailure(partner, 'TIMEOUT', now)).toBe(1);
    expect(await health.recordFailure(partner, 'HTTP_ERROR', pause)).toBe(2);
    expect(await health.get(partner)).toMatchObject({
      consecutiveFailures: 2,
      lastErrorClass: 'HTTP_ERROR',
      pausedUntil: pause.toISOString(),
    });
    await health.reset(partner);
    expect(await health.get(partner)).toBeUndefined();
    await health.reset(partner);
  });

  it('counts concurrent failures without losing one', async () => {
    const health = await make();
    const partner = freshPartnerId();
    await Promise.all(Array.from({ length: 5 }, () => health.recordFailure(partner, 'NETWORK', now)));
    expect((await health.get(partner))?.consecutiveFailures).toBe(5);
  });

  it('gives the probe of a failing endpoint to one event only', async () => {
    const health = await make();
    const partner = freshPartnerId();
    await health.recordFailure(partner, 'TIMEOUT', now);
    const seen = await health.get(partner);
    if (!seen) throw new Error('no health row');
    const until = new Date(now.getTime() + 15_000);
    const claims = await Promise.all([health.claimProbe(partner, seen, until), health.claimProbe(partner, seen, until)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await health.get(partner))?.pausedUntil).toBe(until.toISOString());
  });

  it('gives no probe once the endpoint is healthy again', async () => {
    const health = await make();
    const partner = freshPartnerId();
    await health.recordFailure(partner, 'TIMEOUT', now);
    const seen = await health.get(partner);
    if (!seen) throw new Error('no health row');
    await health.reset(partner);
    expect(await health.claimProbe(partner, seen, new Date(now.getTime() + 15_000))).toBe(false);
    expect(await health.get(partner)).toBeUndefined();
  });
}
