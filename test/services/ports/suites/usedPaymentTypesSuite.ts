import { expect, it } from 'vitest';
import type { UsedPaymentTypes } from '../../../../src/services/ports/UsedPaymentTypes.js';
import { freshPartnerId } from './freshIds.js';

/** What every UsedPaymentTypes implementation does. */
export function usedPaymentTypesSuite(make: () => Promise<UsedPaymentTypes>): void {
  const days = async (usage: UsedPaymentTypes, partnerId: string, paymentType: string) =>
    (await usage.listDays(partnerId, paymentType))
      .map(({ storeId, businessDate }) => `${storeId} ${businessDate}`)
      .sort((a, b) => a.localeCompare(b));

  it('lists the days noted for one payment type of one partner, each once, and forgets one on request', async () => {
    const usage = await make();
    const partnerId = freshPartnerId();
    await usage.record(partnerId, 'S/1', '2026-03-01', ['GIFT|CARD', 'VOUCHER']);
    await usage.record(partnerId, 'S/1', '2026-03-01', ['GIFT|CARD']);
    await usage.record(partnerId, 'S#2', '2026-03-02', ['GIFT|CARD']);
    await usage.record(partnerId, 'S-3', '2026-03-03', []);
    await usage.record(freshPartnerId(), 'S/1', '2026-03-04', ['GIFT|CARD']);

    expect(await days(usage, partnerId, 'GIFT|CARD')).toEqual(['S/1 2026-03-01', 'S#2 2026-03-02']);
    expect(await days(usage, partnerId, 'VOUCHER')).toEqual(['S/1 2026-03-01']);
    expect(await usage.listDays(partnerId, 'GIFT')).toEqual([]);

    const [first] = await usage.listDays(partnerId, 'VOUCHER');
    expect(first).toMatchObject({ paymentType: 'VOUCHER', storeId: 'S/1', businessDate: '2026-03-01' });
    await usage.remove(partnerId, first!);
    // Gone already: fine.
    await usage.remove(partnerId, first!);
    expect(await usage.listDays(partnerId, 'VOUCHER')).toEqual([]);
    expect(await days(usage, partnerId, 'GIFT|CARD')).toHaveLength(2);
  });

  it('keeps a note that was written again after it was listed', async () => {
    const usage = await make();
    const partnerId = freshPartnerId();
    await usage.record(partnerId, 'S-1', '2026-03-01', ['HOUSE']);
    const [listed] = await usage.listDays(partnerId, 'HOUSE');
    // A run of the day that still uses the type notes it again before the listed note is removed.
    await usage.record(partnerId, 'S-1', '2026-03-01', ['HOUSE']);
    await usage.remove(partnerId, listed!);
    expect(await days(usage, partnerId, 'HOUSE')).toEqual(['S-1 2026-03-01']);

    const [again] = await usage.listDays(partnerId, 'HOUSE');
    await usage.remove(partnerId, again!);
    expect(await usage.listDays(partnerId, 'HOUSE')).toEqual([]);
  });

  it('holds the longest payment types and store ids in any script', async () => {
    const usage = await make();
    const partnerId = freshPartnerId();
    const paymentType = '🎁'.repeat(50);
    const storeId = '漢'.repeat(128);
    await usage.record(partnerId, storeId, '2026-03-01', [paymentType, `${'🎁'.repeat(49)}!`]);
    expect(await usage.listDays(partnerId, paymentType)).toEqual([
      { paymentType, storeId, businessDate: '2026-03-01', etag: expect.any(String) as string },
    ]);
  });
}
