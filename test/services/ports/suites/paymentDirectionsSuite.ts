import { expect, it } from 'vitest';
import type { PaymentDirections } from '../../../../src/services/ports/PaymentDirections.js';
import { freshPartnerId } from './freshIds.js';

const now = new Date('2026-03-01T00:00:00Z');

/** What every PaymentDirections implementation does. */
export function paymentDirectionsSuite(make: () => Promise<PaymentDirections>): void {
  it("keeps the last direction set for each of a partner's payment types", async () => {
    const directions = await make();
    const partnerId = freshPartnerId();
    expect(await directions.listForPartner(partnerId)).toEqual(new Map());
    await directions.set(partnerId, 'GIFT/CARD', 1, now);
    await directions.set(partnerId, 'PAYOUT', 1, now);
    await directions.set(partnerId, 'PAYOUT', -1, now);
    await directions.set(freshPartnerId(), 'VOUCHER', 0, now);
    expect(await directions.listForPartner(partnerId)).toEqual(
      new Map([
        ['GIFT/CARD', 1],
        ['PAYOUT', -1],
      ]),
    );
  });
}
