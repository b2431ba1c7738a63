import { expect, it } from 'vitest';
import type { UsedPaymentTypes } from '../../../../src/services/ports/UsedPaymentTypes.js';
import { allNotes } from '../../../support/allNotes.js';
import { freshPartnerId } from './freshIds.js';

/** What every UsedPaymentTypes implementation does. */
export function usedPaymentTypesSuite(make: () => Promise<UsedPaymentTypes>): void {
  const listDays = (usage: UsedPaymentTypes, partnerId: string, paymentType: string) =>
    allNotes((after) => usage.listDaysPage(partnerId, paymentType, after, 10));
  const days = async (usage: UsedPaymentTypes, partnerId: string, paymentType: string) =>
    (await listDays(usage, partnerId, paymentType))
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
    expect(await listDays(usage, partnerId, 'GIFT')).toEqual([]);

    const [first] = await listDays(usage, partnerId, 'VOUCHER');
    expect(first).toMatchObject({ paymentType: 'VOUCHER', storeId: 'S/1', businessDate: '2026-03-01' });
    await usage.remove(partnerId, first!);
    // Gone already: fine.
    await usage.remove(partnerId, first!);
    expect(await listDays(usage, partnerId, 'VOUCHER')).toEqual([]);
    expect(await days(usage, partnerId, 'GIFT|CARD')).toHaveLength(2);
  });

  it('keeps a note that was written again after it was listed', async () => {
    const usage = await make();
    const partnerId = freshPartnerId();
    await usage.record(partnerId, 'S-1', '2026-03-01', ['HOUSE']);
    const [listed] = await listDays(usage, partnerId, 'HOUSE');
    // A run of the day that still uses the type notes it again before the listed note is removed.
    await usage.record(partnerId, 'S-1', '2026-03-01', ['HOUSE']);
    await usage.remove(partnerId, listed!);
    expect(await days(usage, partnerId, 'HOUSE')).toEqual(['S-1 2026-03-01']);

    const [again] = await listDays(usage, partnerId, 'HOUSE');
    await usage.remove(partnerId, again!);
    expect(await listDays(usage, partnerId, 'HOUSE')).toEqual([]);
  });

  it('holds the longest payment types and store ids in any script', async () => {
    const usage = await make();
    const partnerId = freshPartnerId();
    const paymentType = '🎁'.repeat(50);
    const storeId = '漢'.repeat(128);
    await usage.record(partnerId, storeId, '2026-03-01', [paymentType, `${'🎁'.repeat(49)}!`]);
    expect(await listDays(usage, partnerId, paymentType)).toEqual([
      { paymentType, storeId, businessDate: '2026-03-01', etag: expect.any(String) as string },
    ]);
  });

  it('lists the days of a type a page at a time, each once, and a day noted again keeps its place', async () => {
    const usage = await make();
    const partnerId = freshPartnerId();
    for (let day = 1; day <= 9; day++) await usage.record(partnerId, `S-${day % 2}`, `2026-03-0${day}`, ['HOUSE']);
    const first = await usage.listDaysPage(partnerId, 'HOUSE', undefined, 4);
    // A run of a listed day notes it again: it is not listed again further on.
    const [again] = first.notes;
    await usage.record(partnerId, again!.storeId, again!.businessDate, ['HOUSE']);
    const rest = await allNotes((after) => usage.listDaysPage(partnerId, 'HOUSE', after ?? first.next, 4));
    const listed = [...first.notes, ...rest].map((u) => `${u.storeId} ${u.businessDate}`);
    expect(listed).toHaveLength(9);
    expect(new Set(listed).size).toBe(9);
  });
}
