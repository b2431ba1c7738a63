import Big from 'big.js';
import type { TradeRecord } from '../model/payloads.js';
import type { Warning } from '../model/Warning.js';

/**
 * The amount identity of contract §2.7, exactly, with decimal arithmetic:
 * total = subtotal − discount + tax + service_charge + tip + rounding when prices exclude tax,
 * and the same without tax when they include it. A record failing it is kept and reported as
 * an `AMOUNT_MISMATCH` warning at `trade_records[<index>]`; undefined when it holds.
 */
export function checkAmountIdentity(record: TradeRecord, index: number): Warning | undefined {
  let expected = new Big(record.subtotal_amount)
    .minus(record.discount_amount)
    .plus(record.service_charge_amount)
    .plus(record.tip_amount)
    .plus(record.rounding_amount);
  if (!record.prices_include_tax) expected = expected.plus(record.tax_amount);
  if (expected.eq(record.total_amount)) return undefined;
  const formula = record.prices_include_tax
    ? 'subtotal - discount + service_charge + tip + rounding (prices include tax)'
    : 'subtotal - discount + tax + service_charge + tip + rounding (prices exclude tax)';
  return {
    code: 'AMOUNT_MISMATCH',
    path: `trade_records[${index}]`,
    message: `total_amount does not equal ${formula}; the record was accepted.`,
  };
}
