import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/ApiError.js';
import { TenantGuard } from '../../src/services/TenantGuard.js';
import { StoreRegistrationRepository } from '../../src/storage/StoreRegistrationRepository.js';
import { azuriteTable } from '../support/azuriteClients.js';
import { testClock, type TestClock } from '../support/testClock.js';
import { apiRefusal } from '../support/apiRefusal.js';

const cacheMs = 30_000;
let registrations: StoreRegistrationRepository;

beforeAll(async () => {
  registrations = new StoreRegistrationRepository(await azuriteTable(`guard${randomUUID().replaceAll('-', '').slice(0, 16)}`));
});

/** A partner of its own with the stores registered, and a guard over the emulator's table. */
async function setUp(storeIds: readonly string[]): Promise<{ partnerId: string; clock: TestClock; guard: TenantGuard }> {
  const partnerId = `p-${randomUUID()}`;
  const clock = testClock(new Date('2026-03-01T12:00:00Z'));
  await registrations.register(partnerId, storeIds, clock());
  return { partnerId, clock, guard: new TenantGuard(registrations, clock, cacheMs) };
}

describe('TenantGuard.isActive', () => {
  it('trusts an ACTIVE store for the cache time, so a retirement takes effect within it', async () => {
    const { partnerId, clock, guard } = await setUp(['S-1']);
    expect(await guard.isActive(partnerId, 'S-1')).toBe(true);

    await registrations.setStatus(partnerId, 'S-1', 'RETIRED', clock());
    clock.advance(cacheMs - 1);
    expect(await guard.isActive(partnerId, 'S-1')).toBe(true);
    clock.advance(1);
    expect(await guard.isActive(partnerId, 'S-1')).toBe(false);
  });

  it('reads a retired or unregistered store again every time, so a reactivation or a registration works at once', async () => {
    const { partnerId, clock, guard } = await setUp(['S-1']);
    await registrations.setStatus(partnerId, 'S-1', 'RETIRED', clock());
    expect(await guard.isActive(partnerId, 'S-1')).toBe(false);
    await registrations.setStatus(partnerId, 'S-1', 'ACTIVE', clock());
    expect(await guard.isActive(partnerId, 'S-1')).toBe(true);

    expect(await guard.isActive(partnerId, 'S-2')).toBe(false);
    await registrations.register(partnerId, ['S-2'], clock());
    expect(await guard.isActive(partnerId, 'S-2')).toBe(true);
  });

  it("never answers one partner with another partner's store of the same id", async () => {
    const { partnerId, guard } = await setUp(['S-1']);
    const other = `p-${randomUUID()}`;
    expect(await guard.isActive(partnerId, 'S-1')).toBe(true);
    expect(await guard.isActive(other, 'S-1')).toBe(false);
    await expect(guard.requireStores(other, ['S-1'])).rejects.toBeInstanceOf(ApiError);
  });
});

describe('TenantGuard.requireStores and requireReadable', () => {
  it('shares the cache with isActive: an ACTIVE store seen by a move is trusted by the next push', async () => {
    const { partnerId, clock, guard } = await setUp(['S-1']);
    expect(await guard.isActive(partnerId, 'S-1')).toBe(true);
    await registrations.setStatus(partnerId, 'S-1', 'RETIRED', clock());
    await expect(guard.requireStores(partnerId, ['S-1'])).resolves.toBeUndefined();
    clock.advance(cacheMs);
    await expect(guard.requireStores(partnerId, ['S-1'])).rejects.toBeInstanceOf(ApiError);
  });

  it('refuses a push naming a retired store with the paths it sits at, never the ids, and still lets its past be read', async () => {
    const { partnerId, clock, guard } = await setUp(['S-1', 'S-2']);
    await registrations.setStatus(partnerId, 'S-2', 'RETIRED', clock());
    const error = await apiRefusal(
      guard.requireStores(partnerId, [
        { storeId: 'S-1', path: '/stores/0/store_id' },
        { storeId: 'S-2', path: '/stores/1/store_id' },
        { storeId: 'S-9', path: '/stores/2/store_id' },
      ]),
    );
    expect(error.code).toBe('STORE_NOT_ALLOWED');
    expect(error.details.map((detail) => detail.path)).toEqual(['/stores/1/store_id', '/stores/2/store_id']);
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toMatch(/S-2|S-9/);

    await expect(guard.requireReadable(partnerId, 'S-2')).resolves.toBeUndefined();
    expect((await apiRefusal(guard.requireReadable(partnerId, 'S-9'))).code).toBe('STORE_NOT_ALLOWED');
  });
});
