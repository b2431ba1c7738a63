import { scaledAmountText } from '../../reports/scaledAmount.js';
import type { Partners } from '../ports/Partners.js';
import type { ReportStoreDays } from '../ports/ReportStoreDays.js';

export const salesGroupKeys = ['partner', 'store', 'standard_type', 'day'] as const;
export type SalesGroupKey = (typeof salesGroupKeys)[number];

export interface SalesQueryParameters {
  /** Business dates, inclusive (YYYY-MM-DD, checked by the caller). */
  readonly from: string;
  readonly to: string;
  readonly groupBy: readonly SalesGroupKey[];
  readonly partnerId?: string | undefined;
}

/** One group's totals in one currency; the keys present are those grouped by. */
export interface SalesGroup {
  readonly partner_id?: string;
  readonly store_id?: string;
  readonly standard_type?: string;
  readonly business_date?: string;
  readonly currency: string;
  readonly net_sales: string;
  readonly tax_amount: string;
  readonly tip_amount: string;
  readonly transaction_count: number;
}

interface Sums {
  keys: Omit<SalesGroup, 'currency' | 'net_sales' | 'tax_amount' | 'tip_amount' | 'transaction_count'>;
  /** The group keys in order (absent ones as empty), then the currency: what the groups are sorted by. */
  order: readonly string[];
  currency: string;
  net: bigint;
  tax: bigint;
  tip: bigint;
  count: number;
}

/**
 * Sales totals for HQ from the same data as the report files: the per-store-day totals written
 * with them (mapped transactions of a revenue standard type, latest version only), summed per group
 * and currency, never across currencies. Amounts are exact decimal strings with the currency's
 * minor-unit digits.
 */
export class SalesQuery {
  constructor(
    private readonly storeDays: Pick<ReportStoreDays, 'listRange'>,
    private readonly partners: Pick<Partners, 'list'>,
  ) {}

  async totals(query: SalesQueryParameters): Promise<SalesGroup[]> {
    const partnerIds = query.partnerId === undefined ? (await this.partners.list()).map((p) => p.partnerId) : [query.partnerId];
    const by = new Set(query.groupBy);
    const groups = new Map<string, Sums>();
    for (const partnerId of partnerIds) {
      for await (const { businessDate, row } of this.storeDays.listRange(partnerId, query.from, query.to)) {
        for (const sale of row.sales.sales) {
          if (!sale.is_revenue) continue;
          const keys = {
            ...(by.has('partner') || by.has('store') ? { partner_id: partnerId } : {}),
            ...(by.has('store') ? { store_id: row.store_id } : {}),
            ...(by.has('standard_type') ? { standard_type: sale.standard_type } : {}),
            ...(by.has('day') ? { business_date: businessDate } : {}),
          };
          const order = [keys.partner_id ?? '', keys.store_id ?? '', keys.standard_type ?? '', keys.business_date ?? '', sale.currency];
          const key = JSON.stringify(order);
          let sums = groups.get(key);
          if (!sums) {
            sums = { keys, order, currency: sale.currency, net: 0n, tax: 0n, tip: 0n, count: 0 };
            groups.set(key, sums);
          }
          sums.net += BigInt(sale.net_sales);
          sums.tax += BigInt(sale.tax_amount);
          sums.tip += BigInt(sale.tip_amount);
          sums.count += sale.transaction_count;
        }
      }
    }
    return [...groups.values()]
      .sort((a, b) => compareKeys(a.order, b.order))
      .map((s) => ({
        ...s.keys,
        currency: s.currency,
        net_sales: scaledAmountText(s.net, s.currency),
        tax_amount: scaledAmountText(s.tax, s.currency),
        tip_amount: scaledAmountText(s.tip, s.currency),
        transaction_count: s.count,
      }));
  }
}

/** Orders groups by their keys in order (absent keys first), then currency. */
function compareKeys(x: readonly string[], y: readonly string[]): number {
  for (let i = 0; i < x.length; i++) {
    const p = x[i] ?? '';
    const q = y[i] ?? '';
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}
