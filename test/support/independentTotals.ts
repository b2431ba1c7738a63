/**
 * The tests' one calculator of a store-day's control totals, computed the way a partner's POS would,
 * with plain integer minor units: no big.js and no production code, so that the service's figures are
 * checked against an independent calculation. The contract's rules (which standard codes are revenue,
 * which way each suggested payment type counts) are restated here by hand for the same reason.
 */
import type { TradeRecord } from '../../src/domain/model/payloads.js';

/** Standard codes that count as revenue (contract §2.6). */
export const CONTRACT_REVENUE_CODES: readonly string[] = ['SALE', 'REFUND', 'RETURN', 'EXCHANGE'];

/** Directions of the suggested payment types (§2.11): DEPOSIT_APPLIED was counted when the deposit was taken. */
export const SUGGESTED_DIRECTIONS: Readonly<Record<string, number>> = {
  SALE: 1,
  REFUND: -1,
  DEPOSIT: 1,
  DEPOSIT_APPLIED: 0,
  ADJUSTMENT: 1,
};

/** "12.34" → 1234 with 2 digits; "-640" → -640 with 0 digits. */
export function toMinor(text: string, digits: number): number {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a decimal: ${text}`);
  const fraction = match[3] ?? '';
  if (fraction.length !== digits) throw new Error(`${text} does not have ${digits} decimal places`);
  const magnitude = Number(match[2]) * 10 ** digits + Number(fraction === '' ? '0' : fraction);
  return match[1] === '-' ? -magnitude : magnitude;
}

/** 1234 → "12.34" with 2 digits; -5 → "-0.05". */
export function fromMinor(minor: number, digits: number): string {
  if (!Number.isSafeInteger(minor)) throw new Error(`not an integer amount: ${minor}`);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  if (digits === 0) return `${sign}${abs}`;
  const unit = 10 ** digits;
  return `${sign}${Math.floor(abs / unit)}.${String(abs % unit).padStart(digits, '0')}`;
}

export interface IndependentRules {
  readonly digits: number;
  /** source code → standard code */
  readonly mapping: Readonly<Record<string, string>>;
  /** standard codes that count as revenue */
  readonly revenueCodes: readonly string[];
  /** payment_type → direction; types not listed are left out */
  readonly directions: Readonly<Record<string, number>>;
}

/** The contract's rules for a partner's mapping; `directions` adds the partner's own payment types (the suggested ones win). */
export function contractRules(
  digits: number,
  mapping: Readonly<Record<string, string>>,
  directions: Readonly<Record<string, number>> = {},
): IndependentRules {
  return { digits, mapping, revenueCodes: CONTRACT_REVENUE_CODES, directions: { ...directions, ...SUGGESTED_DIRECTIONS } };
}

/**
 * The records that count for a store-day out of every record sent (in any order, stale resends
 * included): the highest version of each trade_record_id, ties to the later last_modified_at.
 */
export function latestVersions(sent: readonly TradeRecord[]): TradeRecord[] {
  const latest = new Map<string, TradeRecord>();
  for (const r of sent) {
    const held = latest.get(r.trade_record_id);
    if (
      !held ||
      r.version > held.version ||
      (r.version === held.version && Date.parse(r.last_modified_at) > Date.parse(held.last_modified_at))
    ) {
      latest.set(r.trade_record_id, r);
    }
  }
  return [...latest.values()];
}

/** The control totals of a daily close. */
export interface Totals {
  trade_record_count: number;
  item_row_count: number;
  payment_row_count: number;
  net_sales_amount: string;
  tax_amount: string;
  tip_amount: string;
  payment_total_amount: string;
}

/** The control totals of `records` (each transaction once) under `rules`. */
export function independentTotals(records: readonly TradeRecord[], rules: IndependentRules): Totals {
  const m = (text: string) => toMinor(text, rules.digits);
  let net = 0;
  let tax = 0;
  let tip = 0;
  let payments = 0;
  for (const r of records) {
    const standard = rules.mapping[r.source_transaction_type];
    if (standard !== undefined && rules.revenueCodes.includes(standard)) {
      net += m(r.total_amount) - m(r.tax_amount) - m(r.tip_amount);
      tax += m(r.tax_amount);
      tip += m(r.tip_amount);
    }
    for (const p of r.payments) {
      const direction = rules.directions[p.payment_type];
      if (direction !== undefined) payments += direction * m(p.amount);
    }
  }
  return {
    trade_record_count: records.length,
    item_row_count: records.reduce((n, r) => n + r.items.length, 0),
    payment_row_count: records.reduce((n, r) => n + r.payments.length, 0),
    net_sales_amount: fromMinor(net, rules.digits),
    tax_amount: fromMinor(tax, rules.digits),
    tip_amount: fromMinor(tip, rules.digits),
    payment_total_amount: fromMinor(payments, rules.digits),
  };
}

/** The amount identity of contract §2.7 in integer minor units; true when the record satisfies it. */
export function satisfiesAmountIdentity(r: TradeRecord, digits: number): boolean {
  const m = (text: string) => toMinor(text, digits);
  const base = m(r.subtotal_amount) - m(r.discount_amount) + m(r.service_charge_amount) + m(r.tip_amount) + m(r.rounding_amount);
  return m(r.total_amount) === (r.prices_include_tax ? base : base + m(r.tax_amount));
}

/** Σ line_amount of the lines that are not voided, in minor units. */
export function itemsSubtotal(r: TradeRecord, digits: number): number {
  return r.items.filter((i) => !i.is_voided).reduce((n, i) => n + toMinor(i.line_amount, digits), 0);
}
