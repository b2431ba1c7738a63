import { expect, it } from 'vitest';
import type { HomeClaim, TradeRecordHomes } from '../../../../src/services/ports/TradeRecordHomes.js';
import { freshPartnerId } from './freshIds.js';

const d1 = { storeId: 'S/1', businessDate: '2026-03-01' };
const d2 = { storeId: 'S/1', businessDate: '2026-03-02' };
const otherStore = { storeId: 'S#2', businessDate: '2026-03-01' };

const claim = (tradeRecordId: string, version = 1): HomeClaim => ({
  tradeRecordId,
  stamp: { version, last_modified_at: '2026-03-01T10:00:00Z' },
});

/** What every TradeRecordHomes implementation does. */
export function tradeRecordHomesSuite(make: () => Promise<TradeRecordHomes>): void {
  it('notes the first store-day and stamp of each id, and returns the homes that existed', async () => {
    const homes = await make();
    const partnerId = freshPartnerId();
    // More ids than one transaction holds, and ids table keys cannot hold as they are.
    const ids = Array.from({ length: 230 }, (_, i) => `T/${i}#?`);
    expect(
      await homes.claim(
        partnerId,
        d1,
        ids.map((id) => claim(id)),
      ),
    ).toEqual(new Map());

    const again = await homes.claim(partnerId, d2, [claim('T/5#?', 2), claim('NEW-1', 3), claim('T/229#?')]);
    expect([...again.keys()].sort()).toEqual(['T/229#?', 'T/5#?']);
    expect(again.get('T/5#?')).toMatchObject({ ...d1, stamp: claim('T/5#?').stamp, vacating: [] });
    expect(await homes.get(partnerId, 'NEW-1')).toMatchObject({ ...d2, stamp: claim('NEW-1', 3).stamp, vacating: [] });
    expect(await homes.get(partnerId, 'T/100#?')).toMatchObject(d1);
    expect(await homes.get(partnerId, 'never-sent')).toBeUndefined();
  });

  it('replaces and removes a home only while it is as read', async () => {
    const homes = await make();
    const partnerId = freshPartnerId();
    await homes.claim(partnerId, d1, [claim('T-1')]);
    const read = await homes.get(partnerId, 'T-1');
    if (!read) throw new Error('home not noted');
    const moved = { ...otherStore, stamp: claim('T-1', 2).stamp, vacating: [d1] };
    const written = await homes.replace(partnerId, 'T-1', moved, read.etag);
    expect(written).toMatchObject(moved);
    expect(await homes.get(partnerId, 'T-1')).toEqual(written);
    // A second writer that read before the first wrote loses.
    expect(await homes.replace(partnerId, 'T-1', { ...d2, stamp: claim('T-1', 3).stamp, vacating: [] }, read.etag)).toBeUndefined();
    expect(await homes.remove(partnerId, 'T-1', read.etag)).toBe(false);
    const emptied = await homes.replace(partnerId, 'T-1', { ...moved, vacating: [] }, written?.etag ?? '');
    expect(emptied?.vacating).toEqual([]);
    expect(await homes.remove(partnerId, 'T-1', emptied?.etag ?? '')).toBe(true);
    expect(await homes.get(partnerId, 'T-1')).toBeUndefined();
  });

  it('keeps partners apart', async () => {
    const homes = await make();
    const [a, b] = [freshPartnerId(), freshPartnerId()];
    await homes.claim(a, d1, [claim('SHARED')]);
    expect(await homes.claim(b, d2, [claim('SHARED')])).toEqual(new Map());
    expect(await homes.get(a, 'SHARED')).toMatchObject(d1);
    expect(await homes.get(b, 'SHARED')).toMatchObject(d2);
  });
}
