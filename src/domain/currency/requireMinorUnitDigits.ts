import { minorUnitDigits } from './minorUnitDigits.js';

/**
 * Minor-unit digits of a currency that must be known (a store's currency, checked when the store
 * master was uploaded); throws a RangeError for a code that is not ISO 4217.
 */
export function requireMinorUnitDigits(currency: string): number {
  const digits = minorUnitDigits(currency);
  if (digits === undefined) throw new RangeError(`unknown currency: ${JSON.stringify(currency.slice(0, 10))}`);
  return digits;
}
