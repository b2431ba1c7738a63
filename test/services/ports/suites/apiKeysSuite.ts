import { expect, it } from 'vitest';
import { hashApiKey } from '../../../../src/services/hashApiKey.js';
import type { ApiKeys } from '../../../../src/services/ports/ApiKeys.js';
import { freshPartnerId } from './freshIds.js';

/** What every ApiKeys implementation does. */
export function apiKeysSuite(make: () => Promise<ApiKeys>): void {
  it('finds a created key by its hash, active, with its expiry', async () => {
    const keys = await make();
    const partnerId = freshPartnerId();
    const keyHash = hashApiKey(`key of ${partnerId}`);
    await keys.create({ keyHash, keyId: 'key-1', partnerId, createdAt: '2026-03-01T00:00:00.000Z', expiresAt: '2027-01-01T00:00:00.000Z' });
    expect(await keys.findByHash(keyHash)).toEqual({
      keyHash,
      keyId: 'key-1',
      partnerId,
      status: 'ACTIVE',
      createdAt: '2026-03-01T00:00:00.000Z',
      expiresAt: '2027-01-01T00:00:00.000Z',
      revokedAt: undefined,
    });
    expect(await keys.findByHash(hashApiKey(`other key of ${partnerId}`))).toBeUndefined();
  });

  it("lists one partner's keys oldest first and revokes one of them", async () => {
    const keys = await make();
    const partnerId = freshPartnerId();
    const other = freshPartnerId();
    await keys.create({
      keyHash: hashApiKey(`b ${partnerId}`),
      keyId: 'key-b',
      partnerId,
      createdAt: '2026-03-02T00:00:00.000Z',
      expiresAt: undefined,
    });
    await keys.create({
      keyHash: hashApiKey(`a ${partnerId}`),
      keyId: 'key-a',
      partnerId,
      createdAt: '2026-03-01T00:00:00.000Z',
      expiresAt: undefined,
    });
    await keys.create({
      keyHash: hashApiKey(`c ${other}`),
      keyId: 'key-c',
      partnerId: other,
      createdAt: '2026-03-01T00:00:00.000Z',
      expiresAt: undefined,
    });
    expect((await keys.listForPartner(partnerId)).map((k) => k.keyId)).toEqual(['key-a', 'key-b']);

    expect(await keys.revoke(partnerId, 'key-c', new Date('2026-03-03T00:00:00Z'))).toBe(false);
    expect(await keys.revoke(partnerId, 'key-b', new Date('2026-03-03T00:00:00Z'))).toBe(true);
    expect(await keys.findByHash(hashApiKey(`b ${partnerId}`))).toMatchObject({ status: 'REVOKED', revokedAt: '2026-03-03T00:00:00.000Z' });
    expect(await keys.findByHash(hashApiKey(`c ${other}`))).toMatchObject({ status: 'ACTIVE' });
    // Revoked once: a later revocation, or several side by side, keep the first time.
    const again = await Promise.all(['04', '05', '06'].map((day) => keys.revoke(partnerId, 'key-b', new Date(`2026-03-${day}T00:00:00Z`))));
    expect(again).toEqual([true, true, true]);
    expect(await keys.findByHash(hashApiKey(`b ${partnerId}`))).toMatchObject({ revokedAt: '2026-03-03T00:00:00.000Z' });
    const raced = await Promise.all(['07', '08', '09'].map((day) => keys.revoke(partnerId, 'key-a', new Date(`2026-03-${day}T00:00:00Z`))));
    expect(raced).toEqual([true, true, true]);
    const revokedAt = (await keys.findByHash(hashApiKey(`a ${partnerId}`)))?.revokedAt;
    expect(['2026-03-07T00:00:00.000Z', '2026-03-08T00:00:00.000Z', '2026-03-09T00:00:00.000Z']).toContain(revokedAt);
  });
}
