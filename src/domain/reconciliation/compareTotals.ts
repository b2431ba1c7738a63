import Big from 'big.js';
import { AMOUNT_FIELDS, CONTROL_TOTAL_FIELDS, COUNT_FIELDS, type ControlTotalField, type ControlTotals } from './ControlTotals.js';
import { requireMinorUnitDigits } from '../currency/requireMinorUnitDigits.js';

export interface Comparison {
  readonly status: 'MATCHED' | 'MISMATCHED';
  /** Names of the fields that differ, in the contract's order; empty when MATCHED. */
  readonly differences: ControlTotalField[];
}

function parse(text: string): Big | undefined {
  try {
    return new Big(text);
  } catch {
    return undefined;
  }
}

/**
 * Compares the daily close's control totals with the recomputed ones (contract §2.12): counts must
 * be equal; amounts may differ by at most the currency's smallest unit (0.01 USD, 1 JPY).
 * An amount that is not a decimal number is a difference.
 */
export function compareTotals(expected: ControlTotals, actual: ControlTotals, currency: string): Comparison {
  const tolerance = new Big(1).div(new Big(10).pow(requireMinorUnitDigits(currency)));
  const differing = new Set<ControlTotalField>();
  for (const field of COUNT_FIELDS) {
    if (expected[field] !== actual[field]) differing.add(field);
  }
  for (const field of AMOUNT_FIELDS) {
    const e = parse(expected[field]);
    const a = parse(actual[field]);
    if (e === undefined || a === undefined || e.minus(a).abs().gt(tolerance)) differing.add(field);
  }
  const differences = CONTROL_TOTAL_FIELDS.filter((f) => differing.has(f));
  return { status: differences.length === 0 ? 'MATCHED' : 'MISMATCHED', differences };
}
