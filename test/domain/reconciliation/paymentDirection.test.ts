import { describe, expect, it } from 'vitest';
import { BUILT_IN_PAYMENT_DIRECTIONS, paymentDirection } from '../../../src/domain/reconciliation/paymentDirection.js';

describe('paymentDirection', () => {
  it('gives the built-in directions of the suggested codes', () => {
    expect(Object.fromEntries(BUILT_IN_PAYMENT_DIRECTIONS)).toEqual({
      SALE: 1,
      REFUND: -1,
      DEPOSIT: 1,
      DEPOSIT_APPLIED: 0,
      ADJUSTMENT: 1,
    });
    expect(paymentDirection('REFUND')).toBe(-1);
  });

  it('uses the partner registration for other codes, else knows nothing', () => {
    const partner = new Map([['TICKET_RESTAURANT', 1 as const]]);
    expect(paymentDirection('TICKET_RESTAURANT', partner)).toBe(1);
    expect(paymentDirection('TICKET_RESTAURANT')).toBeUndefined();
    expect(paymentDirection('sale', partner)).toBeUndefined();
  });

  it('keeps the built-in direction even when a partner registered another', () => {
    expect(paymentDirection('DEPOSIT_APPLIED', new Map([['DEPOSIT_APPLIED', 1 as const]]))).toBe(0);
  });
});
