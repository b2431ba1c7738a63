import { expect, it } from 'vitest';
import type { StoreRegistrations } from '../../../../src/services/ports/StoreRegistrations.js';
import { freshPartnerId } from './freshIds.js';

const now = new Date('2026-03-01T00:00:00Z');
const later = new Date('2026-03-02T00:00:00Z');

/** What every StoreRegistrations implementation does. */
export function storeRegistrationsSuite(make: () => Promise<StoreRegistrations>): void {
  it('registers each store once and reports only the new ones', async () => {
    const registrations = await make();
    const partnerId = freshPartnerId();
    expect((await registrations.register(partnerId, ['S/1', 'S#2', 'S/1'], now)).sort()).toEqual(['S#2', 'S/1']);
    expect(await registrations.register(partnerId, ['S/1', 'S-3'], now)).toEqual(['S-3']);
    expect((await registrations.listRegistrations(partnerId)).map((r) => r.storeId)).toEqual(['S#2', 'S-3', 'S/1']);
  });

  it("never counts another partner's store as registered", async () => {
    const registrations = await make();
    const partnerId = freshPartnerId();
    const other = freshPartnerId();
    await registrations.register(other, ['S-1', 'S-2'], now);
    await registrations.register(partnerId, ['S-1'], now);
    expect(await registrations.statusesAmong(partnerId, ['S-2', 'S-1', 'S-2', 'S-9'])).toEqual(new Map([['S-1', 'ACTIVE']]));
    expect((await registrations.listRegistrations(partnerId)).map((r) => r.storeId)).toEqual(['S-1']);
    expect(await registrations.getRegistration(partnerId, 'S-1')).toEqual({
      storeId: 'S-1',
      registeredAt: now.toISOString(),
      status: 'ACTIVE',
      retiredAt: null,
    });
    expect(await registrations.getRegistration(partnerId, 'S-2')).toBeUndefined();
  });

  it('lists the registrations by store id with when each was made', async () => {
    const registrations = await make();
    const partnerId = freshPartnerId();
    await registrations.register(partnerId, ['S-2', 'S/1'], now);
    await registrations.register(partnerId, ['S-2', 'S#3'], later);
    await registrations.register(freshPartnerId(), ['S-9'], now);
    const active = { status: 'ACTIVE', retiredAt: null };
    expect(await registrations.listRegistrations(partnerId)).toEqual([
      { storeId: 'S#3', registeredAt: later.toISOString(), ...active },
      { storeId: 'S-2', registeredAt: now.toISOString(), ...active },
      { storeId: 'S/1', registeredAt: now.toISOString(), ...active },
    ]);
  });

  it('retires a store and makes it active again, each idempotently, keeping the registration', async () => {
    const registrations = await make();
    const partnerId = freshPartnerId();
    await registrations.register(partnerId, ['S/1', 'S-2'], now);
    const retired = { storeId: 'S/1', registeredAt: now.toISOString(), status: 'RETIRED', retiredAt: later.toISOString() };
    expect(await registrations.setStatus(partnerId, 'S/1', 'RETIRED', later)).toEqual(retired);
    // Retired again later: still the first retirement.
    expect(await registrations.setStatus(partnerId, 'S/1', 'RETIRED', new Date('2026-03-05T00:00:00Z'))).toEqual(retired);
    expect(await registrations.getRegistration(partnerId, 'S/1')).toEqual(retired);
    expect(await registrations.statusesAmong(partnerId, ['S/1', 'S-2'])).toEqual(
      new Map([
        ['S/1', 'RETIRED'],
        ['S-2', 'ACTIVE'],
      ]),
    );
    expect((await registrations.listRegistrations(partnerId)).map((r) => [r.storeId, r.status])).toEqual([
      ['S-2', 'ACTIVE'],
      ['S/1', 'RETIRED'],
    ]);
    // Registering it again neither duplicates nor reactivates it: reactivation is its own act.
    expect(await registrations.register(partnerId, ['S/1'], later)).toEqual([]);
    expect((await registrations.getRegistration(partnerId, 'S/1'))?.status).toBe('RETIRED');

    const active = { storeId: 'S/1', registeredAt: now.toISOString(), status: 'ACTIVE', retiredAt: null };
    expect(await registrations.setStatus(partnerId, 'S/1', 'ACTIVE', later)).toEqual(active);
    expect(await registrations.setStatus(partnerId, 'S/1', 'ACTIVE', later)).toEqual(active);
    expect(await registrations.getRegistration(partnerId, 'S/1')).toEqual(active);
  });

  it("sets no status of a store not registered, nor of another partner's store", async () => {
    const registrations = await make();
    const partnerId = freshPartnerId();
    const other = freshPartnerId();
    await registrations.register(other, ['S-1'], now);
    expect(await registrations.setStatus(partnerId, 'S-1', 'RETIRED', later)).toBeUndefined();
    expect(await registrations.setStatus(partnerId, 'S-1', 'ACTIVE', later)).toBeUndefined();
    expect(await registrations.getRegistration(partnerId, 'S-1')).toBeUndefined();
    expect((await registrations.getRegistration(other, 'S-1'))?.status).toBe('ACTIVE');
  });
}
