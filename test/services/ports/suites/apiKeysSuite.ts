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
  });
}
