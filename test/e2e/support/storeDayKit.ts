/**
 * Builds store-days the way a partner's POS would, with plain integer minor units (cents, yen):
 * every amount of a record is derived from its lines with integer arithmetic, and the control
 * totals of a daily close are summed the same way. No big.js and no production code, so the
 * service's reconciliation is checked against an independent calculation.
 */
import { randomUUID } from 'node:crypto';
import type {
  DailyClose,
  MappingBatch,
  Payment,
  Store,
  TradeItem,
  TradeRecord,
  TradeRecordBatch,
} from '../../../src/domain/model/payloads.js';
import { contractRules, fromMinor, independentTotals, latestVersions, toMinor, type Totals } from '../../support/independentTotals.js';

export type Currency = 'USD' | 'JPY';

export interface CurrencyProfile {
  readonly currency: Currency;
  /** Minor-unit digits: 2 for USD, 0 for JPY. */
  readonly digits: number;
  readonly pricesIncludeTax: boolean;
  /** Tax rate in parts per million (8.875 % → 88_750). */
  readonly taxRatePpm: number;
  readonly offset: string;
}

export const USD: CurrencyProfile = { currency: 'USD', digits: 2, pricesIncludeTax: false, taxRatePpm: 88_750, offset: '-05:00' };
export const JPY: CurrencyProfile = { currency: 'JPY', digits: 0, pricesIncludeTax: true, taxRatePpm: 100_000, offset: '+09:00' };

/** Integer division rounded half away from zero. */
function divRound(numerator: number, denominator: number): number {
  const q = Math.floor((Math.abs(numerator) * 2 + denominator) / (2 * denominator));
  return numerator < 0 ? -q : q;
}

export interface ModifierSpec {
  readonly group: string;
  readonly option: string;
  readonly name?: string;
  /** Extra charge in minor units (already included in the line's unit price). */
  readonly delta: number;
}

export interface ItemSpec {
  readonly product: string;
  readonly name: string;
  readonly type?: TradeItem['product_type'];
  /** Whole quantity; negative on returned lines. */
  readonly qty: number;
  /** Unit price in minor units, modifier deltas included. */
  readonly unit: number;
  /** Line discount in minor units, with the sign of the quantity. */
  readonly discount?: number;
  readonly modifiers?: readonly ModifierSpec[];
  readonly voided?: boolean;
  /** Combo child lines: served products, unit price zero, pointing at this line. */
  readonly children?: readonly { product: string; name: string; type: TradeItem['product_type'] }[];
}

export interface PaymentSpec {
  readonly type: string;
  readonly method?: string;
  /** Positive minor units, or 'rest': the total less the other payments of the record. */
  readonly amount: number | 'rest';
  readonly tip?: number;
}

export interface RecordSpec {
  readonly id: string;
  readonly code: string;
  readonly version?: number;
  readonly modifiedAt?: string;
  readonly status?: TradeRecord['status'];
  readonly items: readonly ItemSpec[];
  /** Order-level discount in minor units (negative in returns and refunds). */
  readonly orderDiscount?: number;
  readonly serviceCharge?: number;
  readonly tip?: number;
  readonly rounding?: number;
  /** Tax in minor units; computed from the taxable base at the profile's rate when omitted. */
  readonly tax?: number;
  /**
   * Payments; by default one SALE of the total when it is positive, one REFUND when it is
   * negative, none when it is zero.
   */
  readonly payments?: readonly PaymentSpec[];
  readonly original?: string;
  readonly orderType?: string;
}

export interface StoreDay {
  readonly profile: CurrencyProfile;
  readonly storeId: string;
  readonly businessDate: string;
}

let paymentCounter = 0;

/** A complete TradeRecord whose amounts satisfy the amount identity in integer minor units. */
export function buildRecord(day: StoreDay, spec: RecordSpec): TradeRecord {
  const { digits, pricesIncludeTax, taxRatePpm, offset } = day.profile;
  const m = (n: number) => fromMinor(n, digits);
  const items: TradeItem[] = [];
  let subtotal = 0;
  for (const item of spec.items) {
    const lineNo = items.length + 1;
    const discount = item.discount ?? 0;
    const lineAmount = item.qty * item.unit - discount;
    if (!item.voided) subtotal += lineAmount;
    items.push({
      line_no: lineNo,
      parent_line_no: null,
      product_id: item.product,
      product_name: item.name,
      product_type: item.type ?? 'SINGLE',
      quantity: String(item.qty),
      unit_price: m(item.unit),
      discount_amount: m(discount),
      line_amount: m(lineAmount),
      modifiers: (item.modifiers ?? []).map((mod) => ({
        group_id: mod.group,
        option_id: mod.option,
        ...(mod.name ? { option_name: mod.name } : {}),
        quantity: '1',
        price_delta: m(mod.delta),
      })),
      is_voided: item.voided ?? false,
    });
    for (const child of item.children ?? []) {
      items.push({
        line_no: items.length + 1,
        parent_line_no: lineNo,
        product_id: child.product,
        product_name: child.name,
        product_type: child.type,
        quantity: String(item.qty),
        unit_price: m(0),
        discount_amount: m(0),
        line_amount: m(0),
        modifiers: [],
        is_voided: item.voided ?? false,
      });
    }
  }
  const orderDiscount = spec.orderDiscount ?? 0;
  const serviceCharge = spec.serviceCharge ?? 0;
  const tip = spec.tip ?? 0;
  const rounding = spec.rounding ?? 0;
  const base = subtotal - orderDiscount + serviceCharge;
  const tax = spec.tax ?? (pricesIncludeTax ? divRound(base * taxRatePpm, 1_000_000 + taxRatePpm) : divRound(base * taxRatePpm, 1_000_000));
  const total = subtotal - orderDiscount + (pricesIncludeTax ? 0 : tax) + serviceCharge + tip + rounding;

  const paymentSpecs: readonly PaymentSpec[] =
    spec.payments ??
    (total > 0
      ? [{ type: 'SALE', method: 'CREDIT_CARD', amount: total, tip }]
      : total < 0
        ? [{ type: 'REFUND', method: 'CREDIT_CARD', amount: -total }]
        : []);
  const closedAt = `${day.businessDate}T13:30:00${offset}`;
  const fixed = paymentSpecs.reduce((sum, p) => sum + (p.amount === 'rest' ? 0 : p.amount), 0);
  const payments: Payment[] = paymentSpecs.map((p) => {
    paymentCounter += 1;
    const amount = p.amount === 'rest' ? Math.abs(total) - fixed : p.amount;
    return {
      payment_id: `PAY-${spec.id}-${paymentCounter}`,
      payment_type: p.type,
      payment_method: p.method ?? 'CREDIT_CARD',
      amount: m(amount),
      ...(p.tip ? { tip_amount: m(p.tip) } : {}),
      paid_at: closedAt,
    };
  });

  return {
    trade_record_id: spec.id,
    version: spec.version ?? 1,
    store_id: day.storeId,
    business_date: day.businessDate,
    source_transaction_type: spec.code,
    order_type: spec.orderType ?? 'DINE_IN',
    order_source: 'POS',
    status: spec.status ?? 'COMPLETED',
    opened_at: `${day.businessDate}T13:00:00${offset}`,
    closed_at: closedAt,
    currency: day.profile.currency,
    prices_include_tax: pricesIncludeTax,
    subtotal_amount: m(subtotal),
    discount_amount: m(orderDiscount),
    tax_amount: m(tax),
    service_charge_amount: m(serviceCharge),
    tip_amount: m(tip),
    rounding_amount: m(rounding),
    total_amount: m(total),
    ...(spec.original ? { original_trade_record_id: spec.original } : {}),
    last_modified_at: spec.modifiedAt ?? closedAt,
    items,
    payments,
  };
}

export function tradeBatch(day: StoreDay, batchSeq: number, records: TradeRecord[]): TradeRecordBatch {
  return { batch_id: randomUUID(), store_id: day.storeId, business_date: day.businessDate, batch_seq: batchSeq, trade_records: records };
}

/** What the partner's POS knows about the rules of the contract (§2.6, §2.11, DESIGN §6). */
export interface PartnerView {
  /** source code → standard code, as the partner's POS counts it. */
  readonly mapping: Readonly<Record<string, string>>;
  /** payment_type → direction; a type not listed is left out. */
  readonly directions?: Readonly<Record<string, number>>;
}

/**
 * The control totals of a store-day over every record sent (in any order, stale resends included),
 * as the partner's POS counts them: the one independent calculator under the contract's rules.
 */
export function controlTotals(profile: CurrencyProfile, sent: readonly TradeRecord[], view: PartnerView): Totals {
  return independentTotals(latestVersions(sent), contractRules(profile.digits, view.mapping, view.directions));
}

export function dailyClose(day: StoreDay, batchCount: number, totals: Totals): DailyClose {
  return {
    batch_id: randomUUID(),
    store_id: day.storeId,
    business_date: day.businessDate,
    batch_count: batchCount,
    ...totals,
    currency: day.profile.currency,
    closed_at: `${day.businessDate}T23:55:00${day.profile.offset}`,
  };
}

/** Moves one amount of the totals by `delta` minor units. */
export function shifted(profile: CurrencyProfile, totals: Totals, field: keyof Totals & `${string}_amount`, delta: number): Totals {
  return { ...totals, [field]: fromMinor(toMinor(totals[field], profile.digits) + delta, profile.digits) };
}

export function storeBody(day: StoreDay): Store {
  const usd = day.profile.currency === 'USD';
  return {
    store_id: day.storeId,
    store_name: usd ? 'Union Square' : '渋谷店',
    country_code: usd ? 'US' : 'JP',
    currency: day.profile.currency,
    time_zone: usd ? 'America/New_York' : 'Asia/Tokyo',
    locale: usd ? 'en-US' : 'ja-JP',
    workday_start: '04:00',
    prices_include_tax: day.profile.pricesIncludeTax,
    status: 'ACTIVE',
    last_modified_at: '2026-02-01T09:00:00Z',
  };
}

/** The partner's own POS codes used by these tests. */
export const POS_CODES: Readonly<Record<string, string>> = {
  S01: 'SALE',
  R02: 'REFUND',
  RT03: 'RETURN',
  EX04: 'EXCHANGE',
  V09: 'VOID',
  NS10: 'NO_SALE',
  DP20: 'DEPOSIT',
};

export function mappingBody(mapping: Readonly<Record<string, string>>): MappingBatch {
  return {
    batch_id: randomUUID(),
    mappings: Object.entries(mapping).map(([source_code, standard_code]) => ({ source_code, standard_code })),
  };
}
