import { expect, it } from 'vitest';
import type { DayCloses } from '../../../../src/services/ports/DayCloses.js';
import { buildDailyClose } from '../../../fixtures/masterDataFixtures.js';
import { freshPartnerId } from './freshIds.js';

/** What every DayCloses implementation does. */
export function dayClosesSuite(make: () => Promise<DayCloses>): void {
  it('keeps the close received last, whatever order the writes arrive in', async () => {
    const closes = await make();
    const partnerId = freshPartnerId();
    const first = { close: { ...buildDailyClose(), batch_id: 'close-1' }, receivedAt: '2026-03-02T09:00:00.000Z' };
    const second = { close: { ...buildDailyClose(), batch_id: 'close-2', trade_record_count: 4 }, receivedAt: '2026-03-02T10:00:00.000Z' };
    const { store_id: storeId, business_date: businessDate } = first.close;
    expect(await closes.get(partnerId, storeId, businessDate)).toBeUndefined();
    expect(await closes.putIfLatest(partnerId, second)).toBe(true);
    // A slow retry of the older close does not undo the newer one.
    expect(await closes.putIfLatest(partnerId, first)).toBe(false);
    expect(await closes.putIfLatest(partnerId, second)).toBe(true);
    expect(await closes.get(partnerId, storeId, businessDate)).toEqual(second);
    expect(await closes.get(freshPartnerId(), storeId, businessDate)).toBeUndefined();
  });

  it('orders two closes received at the same instant by batch_id, whichever is written first', async () => {
    const closes = await make();
    const receivedAt = '2026-03-02T09:00:00.000Z';
    const a = { close: { ...buildDailyClose(), batch_id: 'close-a' }, receivedAt };
    const b = { close: { ...buildDailyClose(), batch_id: 'close-b' }, receivedAt };
    const first = freshPartnerId();
    expect(await closes.putIfLatest(first, b)).toBe(true);
    expect(await closes.putIfLatest(first, a)).toBe(false);
    const second = freshPartnerId();
    expect(await closes.putIfLatest(second, a)).toBe(true);
    expect(await closes.putIfLatest(second, b)).toBe(true);
    for (const partnerId of [first, second]) {
      expect((await closes.get(partnerId, a.close.store_id, a.close.business_date))?.close.batch_id).toBe('close-b');
    }
  });
}
