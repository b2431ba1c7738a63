import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { OperatorKeyStore } from '../../../../src/services/ports/OperatorKeyStore.js';

const hash = (): string => randomUUID().replace(/-/g, '').repeat(2);

/** What every OperatorKeyStore implementation does. */
export function operatorKeyStoreSuite(make: () => Promise<OperatorKeyStore>): void {
  it('finds a key by its hash only, and refuses a second key with the same hash', async () => {
    const keys = await make();
    const keyHash = hash();
    const record = {
      keyHash,
      keyId: 'op-1',
      operator: `ops-${randomUUID()}`,
      role: 'viewer' as const,
      createdAt: '2026-03-01T00:00:00.000Z',
      expiresAt: undefined,
    };
    expect(await keys.create(record)).toBe(true);
    expect(await keys.create({ ...record, keyId: 'op-2', role: 'admin' })).toBe(false);
    expect(await keys.findByHash(keyHash)).toEqual({ ...record, status: 'ACTIVE', revokedAt: undefined });
    expect(await keys.findByHash(hash())).toBeUndefined();
  });

  it('lists by operator then creation time, and revokes a key of its operator once', async () => {
    const keys = await make();
    const operator = `ops-${randomUUID()}`;
    const later = {
      keyHash: hash(),
      keyId: 'op-b',
      operator,
      role: 'admin' as const,
      createdAt: '2026-03-02T00:00:00.000Z',
      expiresAt: '2027-01-01T00:00:00.000Z',
    };
    const earlier = {
      keyHash: hash(),
      keyId: 'op-a',
      operator,
      role: 'viewer' as const,
      createdAt: '2026-03-01T00:00:00.000Z',
      expiresAt: undefined,
    };
    await keys.create(later);
    await keys.create(earlier);
    const mine = (await keys.list()).filter((k) => k.operator === operator);
    expect(mine.map((k) => k.keyId)).toEqual(['op-a', 'op-b']);

    expect(await keys.revoke(`someone-else-${randomUUID()}`, 'op-a', new Date())).toBeUndefined();
    const at = new Date('2026-03-03T00:00:00Z');
    expect(await keys.revoke(operator, 'op-a', at)).toMatchObject({ keyId: 'op-a', status: 'REVOKED', revokedAt: at.toISOString() });
    expect(await keys.revoke(operator, 'op-a', new Date('2026-03-04T00:00:00Z'))).toMatchObject({ revokedAt: at.toISOString() });
    expect((await keys.findByHash(earlier.keyHash))?.status).toBe('REVOKED');
    expect((await keys.findByHash(later.keyHash))?.status).toBe('ACTIVE');
  });
}
