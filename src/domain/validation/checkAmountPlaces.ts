import type { ProblemDetail } from '../../errors/ProblemDetail.js';
import { hasCurrencyPlaces } from './hasCurrencyPlaces.js';

/**
 * Reports each named amount field of `owner` whose decimal places differ from the currency's
 * minor-unit `digits`. Absent optional fields are skipped.
 */
export function checkAmountPlaces(owner: object, fields: readonly string[], digits: number, path: string, problems: ProblemDetail[]): void {
  for (const field of fields) {
    const value = (owner as Record<string, unknown>)[field];
    if (typeof value === 'string' && !hasCurrencyPlaces(value, digits)) {
      problems.push({ path: `${path}/${field}`, message: placesMessage(digits) });
    }
  }
}

function placesMessage(digits: number): string {
  return digits === 0
    ? 'must have no decimal places in this currency'
    : `must have exactly ${digits} decimal place${digits === 1 ? '' : 's'} in this currency`;
}
