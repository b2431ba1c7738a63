import { scaledAmountText } from '../../reports/scaledAmount.js';
import type { StoreDayRow } from '../../reports/ReconciledStoreDay.js';
import { mapBounded } from '../mapBounded.js';
import type { Partners } from '../ports/Partners.js';
import type { ReportStoreDays } from '../ports/ReportStoreDays.js';
import type { UnmappedCodes } from '../ports/UnmappedCodes.js';
import { compareCodeUnits } from '../../domain/compareCodeUnits.js';

export interface UnmappedCurrencyTotals {
  readonly currency: string;
  readonly transaction_count: number;
  readonly net_sales: string;
  readonly tax_amount: string;
  readonly tip_amount: string;
}

/** A source code whose transactions are held back from the sales data, with their figures. */
export interface UnmappedCode {
  readonly partner_id: string;
  readonly source_transaction_type: string;
  readonly transaction_count: number;
  readonly first_business_date: string;
  readonly last_business_date: string;
  readonly by_currency: readonly UnmappedCurrencyTotals[];
}

interface Entry {
  partnerId: string;
  code: string;
  count: number;
  first: string;
  last: string;
  currencies: Map<string, { count: number; net: bigint; tax: bigint; tip: bigint }>;
}

/**
 * Notes listed per request: one storage page (the listing asks for one more than this, to know
 * whether the partition goes on, and a table page holds at most 1,000 rows).
 */
const notesPerListing = 999;

/** Store-day rows read at once. */
const rowReadConcurrency = 16;

/**
 * The codes held back in unmapped_transactions today, from the totals written with each
 * store-day's files: a day reconciled again after a mapping upload no longer lists the codes it
 * now maps. Ordered by partner, then code.
 *
 * Only the store-days noted in `unmappedusage` are read, each once, by a point read: a
 * store-day's row is written only after its held-back codes are noted (the reconciliation notes
 * them, and the report writer notes those it lists), so a day without a note holds none back.
 * The work of a query thus grows with the days that hold codes back, not with the partner's
 * history: a partner whose codes are all mapped costs one empty listing.
 */
export class UnmappedQuery {
  constructor(
    private readonly storeDays: Pick<ReportStoreDays, 'get'>,
    private readonly partners: Pick<Partners, 'list'>,
    private readonly notes: Pick<UnmappedCodes, 'listPage'>,
  ) {}

  async codes(partnerId?: string): Promise<UnmappedCode[]> {
    const result: UnmappedCode[] = [];
    for (const id of await this.partnerIds(partnerId)) result.push(...(await this.partnerCodes(id)));
    return result;
  }

  /** The partners a query covers, in the order its codes come: the one named, else every partner. */
  async partnerIds(partnerId?: string): Promise<string[]> {
    return partnerId === undefined ? (await this.partners.list()).map((p) => p.partnerId).sort() : [partnerId];
  }

  /** One partner's codes, ordered by code. */
  async partnerCodes(partnerId: string): Promise<UnmappedCode[]> {
    const entries = new Map<string, Entry>();
    // A day noted with several codes is read once; notes come ordered by code, not by day.
    const read = new Set<string>();
    let after: string | undefined;
    do {
      const page = await this.notes.listPage(partnerId, after, notesPerListing);
      const days = page.notes.filter((note) => {
        const key = `${note.storeId}\n${note.businessDate}`;
        if (read.has(key)) return false;
        read.add(key);
        return true;
      });
      await mapBounded(days, rowReadConcurrency, async ({ storeId, businessDate }) => {
        // A note may outlive its row's codes (a day re-run since): the row says what is held back now.
        const row = await this.storeDays.get(partnerId, businessDate, storeId);
        if (row) addHeldBack(entries, partnerId, businessDate, row);
      });
      after = page.next;
    } while (after !== undefined);
    return [...entries.values()].sort((a, b) => compareCodeUnits(a.code, b.code)).map(codeOf);
  }
}

function addHeldBack(entries: Map<string, Entry>, partnerId: string, businessDate: string, row: StoreDayRow): void {
  for (const held of row.sales.unmapped) {
    let entry = entries.get(held.source_transaction_type);
    if (!entry) {
      entry = { partnerId, code: held.source_transaction_type, count: 0, first: businessDate, last: businessDate, currencies: new Map() };
      entries.set(held.source_transaction_type, entry);
    }
    entry.count += held.transaction_count;
    if (businessDate < entry.first) entry.first = businessDate;
    if (businessDate > entry.last) entry.last = businessDate;
    let sums = entry.currencies.get(held.currency);
    if (!sums) {
      sums = { count: 0, net: 0n, tax: 0n, tip: 0n };
      entry.currencies.set(held.currency, sums);
    }
    sums.count += held.transaction_count;
    sums.net += BigInt(held.net_sales);
    sums.tax += BigInt(held.tax_amount);
    sums.tip += BigInt(held.tip_amount);
  }
}

function codeOf(e: Entry): UnmappedCode {
  return {
    partner_id: e.partnerId,
    source_transaction_type: e.code,
    transaction_count: e.count,
    first_business_date: e.first,
    last_business_date: e.last,
    by_currency: [...e.currencies]
      .sort(([a], [b]) => compareCodeUnits(a, b))
      .map(([currency, s]) => ({
        currency,
        transaction_count: s.count,
        net_sales: scaledAmountText(s.net, currency),
        tax_amount: scaledAmountText(s.tax, currency),
        tip_amount: scaledAmountText(s.tip, currency),
      })),
  };
}
