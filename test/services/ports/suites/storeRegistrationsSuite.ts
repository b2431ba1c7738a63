import { expect, it } from 'vitest';
import type { StoreRegistrations } from '../../../../src/services/ports/StoreRegistrations.js';
import { freshPartnerId } from './freshIds.js';

const now = new Date('2026-03-01T00:00:00Z');

/** What every StoreRegistrations implementation does. */
export function storeRegistrationsSuite(make: () => Promise<StoreRegistrations>): void {
  it('registers each store once and reports only the new ones', async () => {
    const registrations = await make();
    const partnerId = freshPartnerId();
    expect((await registrations.register(partnerId, ['S/1', 'S#2', 'S/1'], now)).sort()).toEqual(['S#2', 'S/1']);
    expect(await registrations.register(partnerId, ['S/1', 'S-3'], now)).toEqual(['S-3']);
    expect((await registrations.listForPartner(partnerId)).sort()).toEqual(['S#2', 'S-3', 'S/1']);
  });

  it("never counts another partner's store as registered", async () => {
    const registrations = await make();
    const partnerId = freshPartnerId();
    const other = freshPartnerId();
    await registrations.register(other, ['S-1', 'S-2'], now);
    await registrations.register(partnerId, ['S-1'], now);
    expect(await registrations.isRegistered(partnerId, 'S-1')).toBe(true);
    expect(await registrations.isRegistered(partnerId, 'S-2')).toBe(false);
    expect(await registrations.unregisteredAmong(partnerId, ['S-2', 'S-1', 'S-2', 'S-9'])).toEqual(['S-2', 'S-9']);
    expect(await registrations.listForPartner(partnerId)).toEqual(['S-1']);
    expect(await registrations.getRegistration(partnerId, 'S-1')).toEqual({ storeId: 'S-1', registeredAt: now.toISOString() });
    expect(await registrations.getRegistration(partnerId, 'S-2')).toBeUndefined();
  });

  it('lists the registrations by store id with when each was made', async () => {
    const registrations = await make();
    const partnerId = freshPartnerId();
    const later = new Date('2026-03-02T00:00:00Z');
    await registrations.register(partnerId, ['S-2', 'S/1'], now);
    await registrations.register(partnerId, ['S-2', 'S#3'], later);
    await registrations.register(freshPartnerId(), ['S-9'], now);
    expect(await registrations.listRegistrations(partnerId)).toEqual([
      { storeId: 'S#3', registeredAt: later.toISOString() },
      { storeId: 'S-2', registeredAt: now.toISOString() },
      { storeId: 'S/1', registeredAt: now.toISOString() },
    ]);
  });
}
