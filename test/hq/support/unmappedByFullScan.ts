import { scaledAmountText } from '../../../src/reports/scaledAmount.js';
import type { ReportStoreDays } from '../../../src/services/ports/ReportStoreDays.js';
import type { UnmappedCode } from '../../../src/services/reports/UnmappedQuery.js';

interface Sums {
  count: number;
  net: bigint;
  tax: bigint;
  tip: bigint;
}

/**
 * A partner's unmapped codes summed from every store-day row it has, noted or not: what
 * `GET /hq/v1/unmapped` answered before it read only the noted days, and what it must still answer.
 */
export async function unmappedByFullScan(storeDays: Pick<ReportStoreDays, 'listRange'>, partnerId: string): Promise<UnmappedCode[]> {
  const codes = new Map<string, { count: number; first: string; last: string; currencies: Map<string, Sums> }>();
  for await (const { businessDate, row } of storeDays.listRange(partnerId)) {
    for (const held of row.sales.unmapped) {
      const code = codes.get(held.source_transaction_type) ?? {
        count: 0,
        first: businessDate,
        last: businessDate,
        currencies: new Map<string, Sums>(),
      };
      codes.set(held.source_transaction_type, code);
      code.count += held.transaction_count;
      if (businessDate < code.first) code.first = businessDate;
      if (businessDate > code.last) code.last = businessDate;
      const sums = code.currencies.get(held.currency) ?? { count: 0, net: 0n, tax: 0n, tip: 0n };
      code.currencies.set(held.currency, sums);
      sums.count += held.transaction_count;
      sums.net += BigInt(held.net_sales);
      sums.tax += BigInt(held.tax_amount);
      sums.tip += BigInt(held.tip_amount);
    }
  }
  return [...codes]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, c]) => ({
      partner_id: partnerId,
      source_transaction_type: code,
      transaction_count: c.count,
      first_business_date: c.first,
      last_business_date: c.last,
      by_currency: [...c.currencies]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([currency, { count, net, tax, tip }]) => ({
          currency,
          transaction_count: count,
          net_sales: scaledAmountText(net, currency),
          tax_amount: scaledAmountText(tax, currency),
          tip_amount: scaledAmountText(tip, currency),
        })),
    }));
}
