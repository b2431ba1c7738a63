import { expect, it } from 'vitest';
import type { Partners } from '../../../../src/services/ports/Partners.js';
import { freshPartnerId } from './freshIds.js';

/** What every Partners implementation does. */
export function partnersSuite(make: () => Promise<Partners>): void {
  it('creates a partner once, active, without its own rate limit', async () => {
    const partners = await make();
    const partnerId = freshPartnerId();
    expect(await partners.get(partnerId)).toBeUndefined();
    expect(await partners.create(partnerId, 'Chain A', new Date('2026-03-01T00:00:00Z'))).toBe(true);
    expect(await partners.create(partnerId, 'Chain B', new Date('2026-03-02T00:00:00Z'))).toBe(false);
    expect(await partners.get(partnerId)).toEqual({
      partnerId,
      name: 'Chain A',
      status: 'ACTIVE',
      rateLimitPerMinute: undefined,
      createdAt: '2026-03-01T00:00:00.000Z',
    });
  });

  it('updates status and rate limit, keeping the rest; an unknown partner is not created', async () => {
    const partners = await make();
    const partnerId = freshPartnerId();
    await partners.create(partnerId, 'Chain A', new Date('2026-03-01T00:00:00Z'));
    expect(await partners.update(partnerId, { status: 'INACTIVE' })).toBe(true);
    expect(await partners.update(partnerId, { rateLimitPerMinute: 30 })).toBe(true);
    expect(await partners.get(partnerId)).toMatchObject({ name: 'Chain A', status: 'INACTIVE', rateLimitPerMinute: 30 });
    // Back on the default; a status change leaves the limit alone.
    expect(await partners.update(partnerId, { rateLimitPerMinute: null })).toBe(true);
    expect((await partners.get(partnerId))?.rateLimitPerMinute).toBeUndefined();
    await partners.update(partnerId, { rateLimitPerMinute: 12 });
    await partners.update(partnerId, { status: 'ACTIVE' });
    expect(await partners.get(partnerId)).toMatchObject({ status: 'ACTIVE', rateLimitPerMinute: 12 });

    const unknown = freshPartnerId();
    expect(await partners.update(unknown, { status: 'ACTIVE' })).toBe(false);
    expect(await partners.get(unknown)).toBeUndefined();
  });

  it('lists every partner with what get returns', async () => {
    const partners = await make();
    const first = freshPartnerId();
    const second = freshPartnerId();
    await partners.create(first, 'Chain A', new Date('2026-03-01T00:00:00Z'));
    await partners.create(second, 'Chain B', new Date('2026-03-02T00:00:00Z'));
    await partners.update(second, { status: 'INACTIVE' });
    const listed = await partners.list();
    expect(listed.find((p) => p.partnerId === first)).toEqual(await partners.get(first));
    expect(listed.find((p) => p.partnerId === second)).toMatchObject({ name: 'Chain B', status: 'INACTIVE' });
  });
}
