import { expect, it } from 'vitest';
import type { StoreMasterData } from '../../../../src/services/ports/StoreMasterData.js';
import { buildUsdStore } from '../../../fixtures/masterDataFixtures.js';
import { freshPartnerId } from './freshIds.js';

/** What every StoreMasterData implementation does. */
export function storeMasterDataSuite(make: () => Promise<StoreMasterData>): void {
  it('keeps the copy with the later last_modified_at and reports the older one as stale', async () => {
    const stores = await make();
    const partnerId = freshPartnerId();
    const first = { ...buildUsdStore('S/1'), store_name: 'First', last_modified_at: '2026-03-01T10:00:00Z' };
    const later = { ...first, store_name: 'Later', last_modified_at: '2026-03-01T06:00:00-05:00' };
    const older = { ...first, store_name: 'Older', last_modified_at: '2026-03-01T09:59:59Z' };
    expect(await stores.upsert(partnerId, [first])).toEqual(new Set());
    expect(await stores.upsert(partnerId, [later])).toEqual(new Set());
    expect(await stores.upsert(partnerId, [older])).toEqual(new Set(['S/1']));
    expect(await stores.get(partnerId, 'S/1')).toEqual(later);
  });

  it('replaces the stored copy with one under the same last_modified_at: stores carry no version', async () => {
    const stores = await make();
    const partnerId = freshPartnerId();
    const first = { ...buildUsdStore('S-1'), last_modified_at: '2026-03-01T10:00:00Z' };
    const corrected = { ...first, currency: 'CAD', last_modified_at: '2026-03-01T05:00:00-05:00' };
    await stores.upsert(partnerId, [first]);
    expect(await stores.upsert(partnerId, [corrected])).toEqual(new Set());
    expect(await stores.get(partnerId, 'S-1')).toEqual(corrected);
  });

  it("keeps each partner's stores apart", async () => {
    const stores = await make();
    const partnerId = freshPartnerId();
    await stores.upsert(partnerId, [buildUsdStore('S-1')]);
    expect(await stores.get(freshPartnerId(), 'S-1')).toBeUndefined();
    expect(await stores.get(partnerId, 'S-2')).toBeUndefined();
  });

  it("lists every store of the partner, as last stored, and no other partner's", async () => {
    const stores = await make();
    const [partnerId, other] = [freshPartnerId(), freshPartnerId()];
    await stores.upsert(partnerId, [buildUsdStore('S-1'), buildUsdStore('S/2')]);
    await stores.upsert(partnerId, [{ ...buildUsdStore('S-1'), store_name: 'Renamed', last_modified_at: '2027-01-01T00:00:00Z' }]);
    await stores.upsert(other, [buildUsdStore('S-3')]);
    const listed = await stores.list(partnerId);
    expect(listed.map((store) => [store.store_id, store.store_name]).sort()).toEqual([
      ['S-1', 'Renamed'],
      ['S/2', buildUsdStore('S/2').store_name],
    ]);
    expect(await stores.list(freshPartnerId())).toEqual([]);
  });
}
