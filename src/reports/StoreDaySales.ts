import { compareCodeUnits } from '../domain/compareCodeUnits.js';

/**
 * Totals of a store-day's sales_transactions per currency and standard type. Amounts are integer
 * counts of ten-thousandths (the files' DECIMAL(18,4)) written as strings, so sums stay exact and
 * JSON keeps every digit.
 */
export interface SalesTotals {
  readonly currency: string;
  readonly standard_type: string;
  readonly is_revenue: boolean;
  readonly transaction_count: number;
  readonly net_sales: string;
  readonly tax_amount: string;
  readonly tip_amount: string;
  readonly total_amount: string;
  readonly payment_total_amount: string;
}

/** Totals of a store-day's unmapped_transactions per source code and currency (amounts as in {@link SalesTotals}). */
export interface UnmappedTotals {
  readonly source_transaction_type: string;
  readonly currency: string;
  readonly transaction_count: number;
  readonly net_sales: string;
  readonly tax_amount: string;
  readonly tip_amount: string;
  readonly total_amount: string;
}

export interface StoreDaySales {
  readonly sales: readonly SalesTotals[];
  readonly unmapped: readonly UnmappedTotals[];
}

/** One transaction's figures, scaled to ten-thousandths. */
export interface TransactionFigures {
  readonly currency: string;
  readonly netSales: bigint;
  readonly tax: bigint;
  readonly tip: bigint;
  readonly total: bigint;
  readonly paymentTotal: bigint;
}

interface Sums {
  count: number;
  netSales: bigint;
  tax: bigint;
  tip: bigint;
  total: bigint;
  paymentTotal: bigint;
}

const newSums = (): Sums => ({ count: 0, netSales: 0n, tax: 0n, tip: 0n, total: 0n, paymentTotal: 0n });

/** Sums transactions (or other store-days' totals) into {@link StoreDaySales}. */
export class SalesAccumulator {
  private readonly sales = new Map<string, { currency: string; standardType: string; isRevenue: boolean; sums: Sums }>();
  private readonly unmapped = new Map<string, { code: string; currency: string; sums: Sums }>();

  addSale(standardType: string, isRevenue: boolean, figures: TransactionFigures): void {
    const key = `${figures.currency}\n${standardType}`;
    let entry = this.sales.get(key);
    if (!entry) {
      entry = { currency: figures.currency, standardType, isRevenue, sums: newSums() };
      this.sales.set(key, entry);
    }
    add(entry.sums, 1, figures);
  }

  addUnmapped(code: string, figures: TransactionFigures): void {
    const key = `${code}\n${figures.currency}`;
    let entry = this.unmapped.get(key);
    if (!entry) {
      entry = { code, currency: figures.currency, sums: newSums() };
      this.unmapped.set(key, entry);
    }
    add(entry.sums, 1, figures);
  }

  /** Adds totals computed elsewhere (another batch of the same store-day). */
  merge(other: StoreDaySales): void {
    for (const s of other.sales) {
      const figures = figuresOf(s.currency, s);
      const key = `${s.currency}\n${s.standard_type}`;
      let entry = this.sales.get(key);
      if (!entry) {
        entry = { currency: s.currency, standardType: s.standard_type, isRevenue: s.is_revenue, sums: newSums() };
        this.sales.set(key, entry);
      }
      add(entry.sums, s.transaction_count, figures);
    }
    for (const u of other.unmapped) {
      const key = `${u.source_transaction_type}\n${u.currency}`;
      let entry = this.unmapped.get(key);
      if (!entry) {
        entry = { code: u.source_transaction_type, currency: u.currency, sums: newSums() };
        this.unmapped.set(key, entry);
      }
      add(entry.sums, u.transaction_count, figuresOf(u.currency, { ...u, payment_total_amount: '0' }));
    }
  }

  /** The totals, ordered by their keys so that equal days give equal JSON. */
  result(): StoreDaySales {
    const byKey = <T>(map: Map<string, T>) => [...map].sort(([a], [b]) => compareCodeUnits(a, b)).map(([, v]) => v);
    return {
      sales: byKey(this.sales).map(({ currency, standardType, isRevenue, sums }) => ({
        currency,
        standard_type: standardType,
        is_revenue: isRevenue,
        transaction_count: sums.count,
        net_sales: String(sums.netSales),
        tax_amount: String(sums.tax),
        tip_amount: String(sums.tip),
        total_amount: String(sums.total),
        payment_total_amount: String(sums.paymentTotal),
      })),
      unmapped: byKey(this.unmapped).map(({ code, currency, sums }) => ({
        source_transaction_type: code,
        currency,
        transaction_count: sums.count,
        net_sales: String(sums.netSales),
        tax_amount: String(sums.tax),
        tip_amount: String(sums.tip),
        total_amount: String(sums.total),
      })),
    };
  }
}

function add(sums: Sums, count: number, figures: TransactionFigures): void {
  sums.count += count;
  sums.netSales += figures.netSales;
  sums.tax += figures.tax;
  sums.tip += figures.tip;
  sums.total += figures.total;
  sums.paymentTotal += figures.paymentTotal;
}

function figuresOf(
  currency: string,
  t: { net_sales: string; tax_amount: string; tip_amount: string; total_amount: string; payment_total_amount: string },
): TransactionFigures {
  return {
    currency,
    netSales: BigInt(t.net_sales),
    tax: BigInt(t.tax_amount),
    tip: BigInt(t.tip_amount),
    total: BigInt(t.total_amount),
    paymentTotal: BigInt(t.payment_total_amount),
  };
}
