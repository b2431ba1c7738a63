import { describe, expect, it } from 'vitest';
import { checkDailyClose } from '../../../src/domain/validation/checkDailyClose.js';
import { buildDailyClose } from '../../fixtures/masterDataFixtures.js';

describe('checkDailyClose', () => {
  it('accepts the USD and JPY fixtures', () => {
    expect(checkDailyClose(buildDailyClose('USD'), 'USD')).toEqual([]);
    expect(checkDailyClose(buildDailyClose('JPY'), 'JPY')).toEqual([]);
    expect(checkDailyClose(buildDailyClose('JPY'), undefined)).toEqual([]);
  });

  it("rejects a currency differing from the store's, or unknown", () => {
    expect(checkDailyClose(buildDailyClose('USD'), 'JPY')).toEqual([
      { path: '/currency', message: "must equal the currency of the store's master data (JPY)" },
    ]);
    expect(checkDailyClose({ ...buildDailyClose('USD'), currency: 'ABC' }, undefined)).toEqual([
      { path: '/currency', message: 'must be an active ISO 4217 currency code' },
    ]);
  });

  it("judges no amount by a currency that is not the store's", () => {
    // A USD close sent as JPY: the code is the mistake, not every amount's two decimals.
    expect(checkDailyClose({ ...buildDailyClose('USD'), currency: 'JPY' }, 'USD')).toEqual([
      { path: '/currency', message: "must equal the currency of the store's master data (USD)" },
    ]);
  });

  it('requires the currency’s decimal places on every amount', () => {
    const close = {
      ...buildDailyClose('USD'),
      net_sales_amount: '35.9',
      tax_amount: '3',
      tip_amount: '6.000',
      payment_total_amount: '45.36',
    };
    expect(checkDailyClose(close, 'USD').map((p) => p.path)).toEqual(['/net_sales_amount', '/tax_amount', '/tip_amount']);
    expect(checkDailyClose({ ...buildDailyClose('JPY'), tax_amount: '210.0' }, 'JPY')).toEqual([
      { path: '/tax_amount', message: 'must have no decimal places in this currency' },
    ]);
  });
});
