/**
 * Control totals of a store-day computed the way a partner's POS would, with plain integer minor
 * units: no big.js and no production code, so that the service's figures are checked against an
 * independent calculation.
 */
import type { TradeRecord } from '../../src/domain/model/payloads.js';

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

export function independentTotals(records: readonly TradeRecord[], rules: IndependentRules) {
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
