import Big from 'big.js';
import { minorUnitDigits } from '../domain/currency/minorUnitDigits.js';
import { formatAmount } from '../domain/reconciliation/formatAmount.js';
import { AMOUNT_SCALE } from './reportColumns.js';

/**
 * A total kept as ten-thousandths (the report files' scale), as a decimal string with the
 * currency's minor-unit digits. Amounts arrive with at most those digits, so nothing is rounded.
 */
export function scaledAmountText(scaled: bigint, currency: string): string {
  const amount = new Big(scaled.toString()).div(10 ** AMOUNT_SCALE);
  return formatAmount(amount, minorUnitDigits(currency) ?? AMOUNT_SCALE);
}
