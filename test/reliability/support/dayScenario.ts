import { independentTotals } from '../../support/independentTotals.js';
import type { DailyClose, TradeRecord, TradeRecordBatch } from '../../../src/domain/model/payloads.js';
import { TradeRecordIndex } from '../../../src/storage/TradeRecordIndex.js';
import { BatchLedger } from '../../../src/storage/BatchLedger.js';
import { buildTradeRecordBatch } from '../../fixtures/tradeRecordFixtures.js';
import { buildMappingBatch, buildUsdStore } from '../../fixtures/masterDataFixtures.js';
import type { TestPartner, TestService } from '../../support/startTestService.js';
import { seededUuid } from './random.js';

/**
 * The business date of run `n`: one store-day per run, so runs never share index partitions.
 * Counted from 2000-01-01, the first date the service accepts, so n up to about 9,000 stays in the past.
 */
export function businessDateOf(n: number): string {
  return new Date(Date.UTC(2000, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
}

/** A valid USD batch of `count` records with ids unique to `tag`. */
export function buildDayBatch(random: () => number, storeId: string, businessDate: string, count: number, tag: string): TradeRecordBatch {
  const batchId = seededUuid(random);
  return buildTradeRecordBatch({ storeId, businessDate, recordCount: count, batchId, tradeRecordIdOf: (seq) => `T-${tag}-${seq}` });
}

/**
 * The control totals of a set of USD records, computed independently of the service: every record
 * counts as revenue (the scenarios send only mapped sales), REFUND payments subtract. Rules of its
 * own over the one calculator: a scenario's records need no mapping to be counted.
 */
export function expectedTotals(
  records: readonly TradeRecord[],
): Omit<DailyClose, 'batch_id' | 'store_id' | 'business_date' | 'batch_count' | 'currency' | 'closed_at'> {
  const paymentTypes = new Set(records.flatMap((r) => r.payments.map((p) => p.payment_type)));
  return independentTotals(records, {
    digits: 2,
    mapping: Object.fromEntries(records.map((r) => [r.source_transaction_type, 'SALE'])),
    revenueCodes: ['SALE'],
    directions: Object.fromEntries([...paymentTypes].map((type) => [type, type === 'REFUND' ? -1 : 1])),
  });
}

/**
 * The close of a USD day, in one batch, whose transactions all have unmapped codes: they count in
 * the row and payment figures but are not revenue, so net sales, tax and tip are zero.
 */
export function unmappedDayClose(storeId: string, businessDate: string, records: readonly TradeRecord[], batchId: string): DailyClose {
  return {
    batch_id: batchId,
    store_id: storeId,
    business_date: businessDate,
    batch_count: 1,
    ...expectedTotals(records),
    net_sales_amount: '0.00',
    tax_amount: '0.00',
    tip_amount: '0.00',
    currency: 'USD',
    closed_at: `${businessDate}T23:59:00-05:00`,
  };
}

/** A partner with one USD store, its store master data and the fixture mapping uploaded. */
export async function preparePartner(service: TestService, random: () => number, storeId = 'NYC-0001'): Promise<TestPartner> {
  const partner = await service.createPartner({ stores: [storeId] });
  const stores = await service.call(partner, 'PUT', 'stores', { batch_id: seededUuid(random), stores: [buildUsdStore(storeId)] });
  if (stores.status !== 202) throw new Error(`store upload answered ${stores.status}`);
  const mapping = await service.call(partner, 'PUT', 'mappings/transaction-types', {
    ...buildMappingBatch(),
    batch_id: seededUuid(random),
  });
  if (mapping.status !== 202) throw new Error(`mapping upload answered ${mapping.status}`);
  return partner;
}

export interface DayCheck {
  /** Transaction rows in the index for the day. */
  readonly indexRows: number;
  /** Ids expected but missing from the index. */
  readonly missing: number;
  /** Rows in the index that were not expected. */
  readonly unexpected: number;
  /** The reconciliation of the day against the independently computed totals. */
  readonly reconciliation: 'MATCHED' | 'MISMATCHED' | 'superseded' | 'skipped';
  readonly differences: readonly string[];
}

/**
 * Checks a store-day after the dust settled: the index holds exactly the expected ids, and a
 * daily close carrying the independently computed totals reconciles MATCHED.
 */
export async function checkDay(
  service: TestService,
  partner: TestPartner,
  random: () => number,
  storeId: string,
  businessDate: string,
  records: readonly TradeRecord[],
  options: { reconcile: boolean } = { reconcile: true },
): Promise<DayCheck> {
  const index = new TradeRecordIndex(service.services.storage.tables.tradeRecords);
  const seen = new Set<string>();
  for await (const row of index.listDay(partner.partnerId, storeId, businessDate)) {
    if (row.type === 'transaction') seen.add(row.summary.trade_record_id);
  }
  const wanted = new Set(records.map((r) => r.trade_record_id));
  const missing = [...wanted].filter((id) => !seen.has(id)).length;
  const unexpected = [...seen].filter((id) => !wanted.has(id)).length;
  if (!options.reconcile || records.length === 0)
    return { indexRows: seen.size, missing, unexpected, reconciliation: 'skipped', differences: [] };

  const closeBatchId = await sendClose(service, partner, random, storeId, businessDate, records);
  // The close's own run, by the id the close names it: starting, it clears the close's note, so the GET shows its result.
  const runId = `close-${closeBatchId}`;
  const outcome = await service.services.reconciler.reconcile({ partnerId: partner.partnerId, storeId, businessDate, closeBatchId, runId });
  const result = await service.services.reconciliationQuery.get(partner.partnerId, storeId, businessDate);
  return { indexRows: seen.size, missing, unexpected, reconciliation: outcome, differences: result.differences };
}

/** Sends a daily close carrying the independently computed totals of `records`; returns its batch_id. */
export async function sendClose(
  service: TestService,
  partner: TestPartner,
  random: () => number,
  storeId: string,
  businessDate: string,
  records: readonly TradeRecord[],
  batchCount = 1,
): Promise<string> {
  const close: DailyClose = {
    batch_id: seededUuid(random),
    store_id: storeId,
    business_date: businessDate,
    batch_count: batchCount,
    ...expectedTotals(records),
    currency: 'USD',
    closed_at: `${businessDate}T23:59:00-05:00`,
  };
  const sent = await service.call(partner, 'POST', 'daily-close', close);
  if (sent.status !== 202) throw new Error(`daily close answered ${sent.status} ${JSON.stringify(sent.body)}`);
  return close.batch_id;
}

/** State of a batch in the ledger: absent, PENDING, COMMITTED or FAILED. */
export async function ledgerState(
  service: TestService,
  partnerId: string,
  batchId: string,
): Promise<'absent' | 'PENDING' | 'COMMITTED' | 'FAILED'> {
  const entry = await new BatchLedger(service.services.storage.tables.batchLedger).get(partnerId, batchId);
  return entry ? entry.state : 'absent';
}

/** The figures every chaos scenario reports, plus the scenario's own counters. */
export type Figures<Extra extends string = never> = {
  attempted: number;
  acknowledged: number;
  lost: number;
  appliedTwice: number;
  unfinished: number;
} & Record<Extra, number>;

export function printFigures(title: string, figures: Figures<string>, extra: Record<string, string | number> = {}): string {
  const rows = [...Object.entries(figures), ...Object.entries(extra)];
  const width = Math.max(...rows.map(([k]) => k.length));
  const text = [`== ${title} ==`, ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`)].join('\n');
  console.log(text);
  return text;
}
