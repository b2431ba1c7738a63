import Big from 'big.js';

/** Decimal string with exactly the given number of places (half-up), never "-0.00". */
export function formatAmount(amount: Big, digits: number): string {
  const text = amount.toFixed(digits);
  return new Big(text).eq(0) ? new Big(0).toFixed(digits) : text;
}
