import { expect, it } from 'vitest';
import type { StoreMasterData } from '../../../../src/services/ports/StoreMasterData.js';
import { buildUsdStore } from '../../../fixtures/masterDataFixtures.js';
import { freshPartnerId } from './freshIds.js';

/** When the writes of these cases happen: every stamp they send lies before it. */
const now = new Date('2026-06-01T00:00:00Z');

/** What every StoreMasterData implementation does. */
export function storeMasterDataSuite(make: () => Promise<StoreMasterData>): void {
  it('keeps the copy with the later last_modified_at and reports the older one as stale', async () => {
    const stores = await make();
    const partnerId = freshPartnerId();
    const first = { ...buildUsdStore('S/1'), store_name: 'First', last_modified_at: '2026-03-01T10:00:00Z' };
    const later = { ...first, store_name: 'Later', last_modified_at: '2026-03-01T06:00:00-05:00' };
    const older = { ...first, store_name: 'Older', last_modified_at: '2026-03-01T09:59:59Z' };
    expect(await stores.upsert(partnerId, [first], now)).toEqual(new Set());
    expect(await stores.upsert(partnerId, [later], now)).toEqual(new Set());
    expect(await stores.upsert(partnerId, [older], now)).toEqual(new Set(['S/1']));
    expect(await stores.get(partnerId, 'S/1')).toEqual(later);
  });

  it('replaces the stored copy with one under the same last_modified_at: stores carry no version', async () => {
    const stores = await make();
    const partnerId = freshPartnerId();
    const first = { ...buildUsdStore('S-1'), last_modified_at: '2026-03-01T10:00:00Z' };
    const corrected = { ...first, currency: 'CAD', last_modified_at: '2026-03-01T05:00:00-05:00' };
    await stores.upsert(partnerId, [first], now);
    expect(await stores.upsert(partnerId, [corrected], now)).toEqual(new Set());
    expect(await stores.get(partnerId, 'S-1')).toEqual(corrected);
  });

  it('lets any copy replace one stamped further ahead than a push may stamp, accepted before that bound', async () => {
    const stores = await make();
    const partnerId = freshPartnerId();
    const placeholder = { ...buildUsdStore('S-1'), store_name: 'Placeholder', last_modified_at: '9999-12-31T23:59:59Z' };
    const corrected = { ...placeholder, store_name: 'Corrected', last_modified_at: '2026-05-31T12:00:00Z' };
    const older = { ...placeholder, store_name: 'Older', last_modified_at: '2026-05-30T12:00:00Z' };
    // As a release without the bound stored it.
    expect(await stores.upsert(partnerId, [placeholder], new Date('9999-12-31T00:00:00Z'))).toEqual(new Set());
    expect(await stores.upsert(partnerId, [corrected], now)).toEqual(new Set());
    expect(await stores.get(partnerId, 'S-1')).toEqual(corrected);
    // From then on the later stamp wins again.
    expect(await stores.upsert(partnerId, [older], now)).toEqual(new Set(['S-1']));
    // A stamp within a day of the clock is honest drift and still wins.
    const ahead = { ...placeholder, store_name: 'Ahead', last_modified_at: '2026-06-01T23:00:00Z' };
    expect(await stores.upsert(partnerId, [ahead], now)).toEqual(new Set());
    expect(await stores.upsert(partnerId, [corrected], now)).toEqual(new Set(['S-1']));
  });

  it("keeps each partner's stores apart", async () => {
    const stores = await make();
    const partnerId = freshPartnerId();
    await stores.upsert(partnerId, [buildUsdStore('S-1')], now);
    expect(await stores.get(freshPartnerId(), 'S-1')).toBeUndefined();
    expect(await stores.get(partnerId, 'S-2')).toBeUndefined();
  });

  it("lists every store of the partner, as last stored, and no other partner's", async () => {
    const stores = await make();
    const [partnerId, other] = [freshPartnerId(), freshPartnerId()];
    await stores.upsert(partnerId, [buildUsdStore('S-1'), buildUsdStore('S/2')], now);
    await stores.upsert(partnerId, [{ ...buildUsdStore('S-1'), store_name: 'Renamed', last_modified_at: '2027-01-01T00:00:00Z' }], now);
    await stores.upsert(other, [buildUsdStore('S-3')], now);
    const listed = await stores.list(partnerId);
    expect(listed.map((store) => [store.store_id, store.store_name]).sort()).toEqual([
      ['S-1', 'Renamed'],
      ['S/2', buildUsdStore('S/2').store_name],
    ]);
    expect(await stores.list(freshPartnerId())).toEqual([]);
  });
}
