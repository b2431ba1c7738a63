// The service's ISO 4217 table, bundled into the page: amounts show the places the API writes them
// with. A browser's locale data differs for some (LBP and IQD have none there).
import { minorUnitDigits } from '../../../src/domain/currency/minorUnitDigits.js';

/** Decimal digits of a currency's minor unit (JPY 0, USD 2, KWD 3); the locale data's for a code the table lacks. */
function currencyDigits(currency: string): number {
  const known = minorUnitDigits(currency);
  if (known !== undefined) return known;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

const decimal = /^[+-]?\d+(\.\d+)?$/;

/**
 * An amount (a decimal string, never a float) in the operator's locale with the currency's digits.
 * The string goes to Intl as is, which formats it exactly; anything not a decimal is shown as sent.
 */
export function formatAmount(amount: string, currency: string, locale?: string): string {
  if (!decimal.test(amount)) return amount;
  const digits = currencyDigits(currency);
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      currencyDisplay: 'code',
      minimumFractionDigits: digits,
      maximumFractionDigits: Math.max(digits, fractionLength(amount)),
    }).format(amount as Intl.StringNumericLiteral);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** A count in the operator's locale. */
export function formatCount(count: number, locale?: string): string {
  return new Intl.NumberFormat(locale).format(count);
}

function fractionLength(amount: string): number {
  const point = amount.indexOf('.');
  return point === -1 ? 0 : amount.length - point - 1;
}
