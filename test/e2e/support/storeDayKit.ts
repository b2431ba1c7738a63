/**
 * What a partner's POS does around its records in the end-to-end tests: batches, store and mapping
 * uploads, and daily closes carrying the control totals it counts itself. The records come from the
 * one builder (test/fixtures/tradeRecordFixtures.ts) and the totals from the one independent
 * calculator (test/support/independentTotals.ts): no big.js and no production code.
 */
import { randomUUID } from 'node:crypto';
import type { DailyClose, MappingBatch, Store, TradeRecord, TradeRecordBatch } from '../../../src/domain/model/payloads.js';
import type { CurrencyProfile, StoreDay } from '../../fixtures/tradeRecordFixtures.js';
import { contractRules, fromMinor, independentTotals, latestVersions, toMinor, type Totals } from '../../support/independentTotals.js';

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
