import Big from 'big.js';
import { minorUnitDigits } from '../currency/minorUnitDigits.js';

/** Minor-unit digits of a currency; throws a RangeError for a code that is not ISO 4217. */
export function currencyDigits(currency: string): number {
  const digits = minorUnitDigits(currency);
  if (digits === undefined) throw new RangeError(`unknown currency: ${JSON.stringify(currency.slice(0, 10))}`);
  return digits;
}

/** Decimal string with exactly the given number of places (half-up), never "-0.00". */
export function formatAmount(amount: Big, digits: number): string {
  const text = amount.toFixed(digits);
  return new Big(text).eq(0) ? new Big(0).toFixed(digits) : text;
}
