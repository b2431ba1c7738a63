import type { ProblemDetail } from '../../errors/ProblemDetail.js';
import { minorUnitDigits } from '../currency/minorUnitDigits.js';

/**
 * Checks a body's currency: a known ISO 4217 code, and equal to the store's currency when the
 * store master is known (`storeCurrency` undefined: never uploaded, only the code is checked).
 * Returns the currency's minor-unit digits, or undefined when the code is unknown or not the
 * store's: amounts are then not judged by a currency the body must not use, so a wrong code on a
 * USD store's "12.50" is one problem, not one per amount too.
 */
export function checkCurrency(
  currency: string,
  storeCurrency: string | undefined,
  path: string,
  problems: ProblemDetail[],
): number | undefined {
  const digits = minorUnitDigits(currency);
  if (digits === undefined) {
    problems.push({ path, message: 'must be an active ISO 4217 currency code' });
    return undefined;
  }
  if (storeCurrency !== undefined && currency !== storeCurrency) {
    // The store's code is the partner's own master data, not the submitted value: safe to name.
    problems.push({ path, message: `must equal the currency of the store's master data (${storeCurrency})` });
    return undefined;
  }
  return digits;
}
