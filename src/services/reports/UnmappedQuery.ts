import { scaledAmountText } from '../../reports/scaledAmount.js';
import type { Partners } from '../ports/Partners.js';
import type { ReportStoreDays } from '../ports/ReportStoreDays.js';

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
 * The codes held back in unmapped_transactions today, from the totals written with each
 * store-day's files: a day reconciled again after a mapping upload no longer lists the codes it
 * now maps. Ordered by partner, then code.
 */
export class UnmappedQuery {
  constructor(
    private readonly storeDays: Pick<ReportStoreDays, 'listRange'>,
    private readonly partners: Pick<Partners, 'list'>,
  ) {}

  async codes(partnerId?: string): Promise<UnmappedCode[]> {
    const partnerIds = partnerId === undefined ? (await this.partners.list()).map((p) => p.partnerId).sort() : [partnerId];
    const result: UnmappedCode[] = [];
    for (const id of partnerIds) {
      const entries = new Map<string, Entry>();
      for await (const { businessDate, row } of this.storeDays.listRange(id)) {
        for (const held of row.sales.unmapped) {
          let entry = entries.get(held.source_transaction_type);
          if (!entry) {
            entry = {
              partnerId: id,
              code: held.source_transaction_type,
              count: 0,
              first: businessDate,
              last: businessDate,
              currencies: new Map(),
            };
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
      const codes = [...entries.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
      for (const e of codes) {
        result.push({
          partner_id: e.partnerId,
          source_transaction_type: e.code,
          transaction_count: e.count,
          first_business_date: e.first,
          last_business_date: e.last,
          by_currency: [...e.currencies]
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([currency, s]) => ({
              currency,
              transaction_count: s.count,
              net_sales: scaledAmountText(s.net, currency),
              tax_amount: scaledAmountText(s.tax, currency),
              tip_amount: scaledAmountText(s.tip, currency),
            })),
        });
      }
    }
    return result;
  }
}
