import type { Clock } from '../../services/ports/Clock.js';
import type { SalesGroup, SalesGroupKey, SalesQuery } from '../../services/reports/SalesQuery.js';
import { TimedCache } from '../../services/TimedCache.js';
import type { UnmappedCode, UnmappedQuery } from '../../services/reports/UnmappedQuery.js';
import { requireDateRange } from './requireDateRange.js';

/** Where the next page starts: the sort key of the last item handed out. */
export type ReportCursor = readonly string[];

export interface ReportPage<T> {
  readonly items: T[];
  readonly next: ReportCursor | undefined;
}

/** A page of sales totals, and when the summing it was cut from read the rows (epoch ms). */
export interface SalesPage extends ReportPage<SalesGroup> {
  readonly summedAt: number;
}

/** A summing of a sales query's rows, and when it read them. */
interface SalesResult {
  readonly groups: readonly SalesGroup[];
  readonly summedAt: number;
}

/**
 * How long this instance answers the further pages of a sales query from the computation of its
 * first page. Each computation reads every store-day row in the range (up to `maxGridDays` days of
 * every store), and a console view of a chain's stores by day asks for many pages: they are cut
 * from one result, which is also one consistent picture. A first page is always computed afresh,
 * and a further page is cut from a kept result only if it is the very summing the page before was
 * cut from (the continuation names it): another instance, or another caller's first page, may
 * have kept an older or a newer one.
 */
const salesPagesTtlMs = 60_000;

/** Results of distinct sales queries kept at once. */
const keptSalesResults = 4;

/** A result with more groups than this is not kept: its size is bounded by the one request computing it. */
const maxKeptSalesGroups = 100_000;

/**
 * Sales totals and unmapped codes for HQ, a page at a time. Both are summed from the per-store-day
 * totals written with the report files, so a page is cut from the ordered result: the cursor is
 * the last item's sort key, which stays valid while new days are written between pages.
 */
export class ReportTotals {
  /** Sales results by query, kept for the further pages of the query (never for a first page). */
  private readonly salesResults: TimedCache<string, SalesResult>;

  constructor(
    private readonly sales: Pick<SalesQuery, 'totals'>,
    private readonly unmapped: Pick<UnmappedQuery, 'partnerIds' | 'partnerCodes'>,
    private readonly clock: Clock,
  ) {
    this.salesResults = new TimedCache(clock, salesPagesTtlMs, keptSalesResults);
  }

  async salesPage(query: {
    from: string;
    to: string;
    groupBy: readonly SalesGroupKey[];
    partnerId?: string | undefined;
    limit: number;
    after?: ReportCursor | undefined;
    /** The `summedAt` of the page before, when the caller has it. */
    summedAt?: number | undefined;
  }): Promise<SalesPage> {
    requireDateRange(query.from, query.to, this.clock());
    const { from, to, groupBy, partnerId, after } = query;
    const key = JSON.stringify([from, to, groupBy, partnerId ?? null]);
    const kept = after === undefined ? undefined : this.salesResults.get(key);
    let result = kept !== undefined && kept.summedAt === query.summedAt ? kept : undefined;
    if (result === undefined) {
      const readAt = this.clock();
      result = { groups: await this.sales.totals({ from, to, groupBy, partnerId }), summedAt: readAt.getTime() };
      if (result.groups.length <= maxKeptSalesGroups) this.salesResults.set(key, result, readAt);
    }
    return { ...pageOf(result.groups, salesKey, query.limit, after), summedAt: result.summedAt };
  }

  async unmappedPage(query: {
    partnerId?: string | undefined;
    limit: number;
    after?: ReportCursor | undefined;
  }): Promise<ReportPage<UnmappedCode>> {
    const { after, limit } = query;
    const items: UnmappedCode[] = [];
    // Codes are summed a partner at a time, from the cursor's partner on, and only until the page
    // is full and one more item shows that a next page exists: a page never sums the partners
    // before the cursor's, nor those after the ones it needs.
    for (const partnerId of await this.unmapped.partnerIds(query.partnerId)) {
      if (after !== undefined && partnerId < (after[0] ?? '')) continue;
      const codes = await this.unmapped.partnerCodes(partnerId);
      items.push(...(after === undefined ? codes : codes.filter((code) => compareCursors(unmappedKey(code), after) > 0)));
      if (items.length > limit) break;
    }
    return pageOf(items, unmappedKey, limit, undefined);
  }
}

/** The order SalesQuery sorts by: the group keys (absent ones as empty), then currency. */
function salesKey(group: SalesGroup): ReportCursor {
  return [group.partner_id ?? '', group.store_id ?? '', group.standard_type ?? '', group.business_date ?? '', group.currency];
}

/** The order UnmappedQuery sorts by: partner, then code. */
function unmappedKey(code: UnmappedCode): ReportCursor {
  return [code.partner_id, code.source_transaction_type];
}

function pageOf<T>(all: readonly T[], keyOf: (item: T) => ReportCursor, limit: number, after: ReportCursor | undefined): ReportPage<T> {
  const start = after === undefined ? 0 : all.findIndex((item) => compareCursors(keyOf(item), after) > 0);
  const items = start < 0 ? [] : all.slice(start, start + limit);
  const last = items.at(-1);
  const more = start >= 0 && start + limit < all.length;
  return { items, next: more && last !== undefined ? keyOf(last) : undefined };
}

function compareCursors(a: ReportCursor, b: ReportCursor): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
