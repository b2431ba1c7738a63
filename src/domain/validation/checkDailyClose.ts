import type { ProblemDetail } from '../../errors/ProblemDetail.js';
import type { DailyClose } from '../model/payloads.js';
import { AMOUNT_FIELDS } from '../reconciliation/ControlTotals.js';
import { checkAmountPlaces } from './checkAmountPlaces.js';
import { checkCurrency } from './checkCurrency.js';
import { findSensitiveData } from './findSensitiveData.js';

/**
 * The rules of a POST /daily-close body that its schema cannot express (contract §2.11, §4.3):
 * a known currency equal to the store's (`storeCurrency` undefined when the store master was
 * never uploaded) and amounts with the currency's decimal places.
 */
export function checkDailyClose(close: DailyClose, storeCurrency: string | undefined): ProblemDetail[] {
  const problems: ProblemDetail[] = [];
  const digits = checkCurrency(close.currency, storeCurrency, '/currency', problems);
  if (digits !== undefined) checkAmountPlaces(close, AMOUNT_FIELDS, digits, '', problems);
  for (const problem of findSensitiveData(close)) problems.push(problem);
  return problems;
}
