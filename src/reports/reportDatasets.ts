/**
 * The curated datasets written for HQ. The first four are written per store-day
 * (`<dataset>/partner_id=/business_date=/store_id=/part-0.parquet`); `store_days` holds one row per
 * store of a partner and business date (`store_days/partner_id=/business_date=/part-0.parquet`);
 * `stores` one row per store registered for a partner (`stores/partner_id=/part-0.parquet`).
 */
export const storeDayDatasets = ['sales_transactions', 'sales_lines', 'sales_payments', 'unmapped_transactions'] as const;

export type StoreDayDataset = (typeof storeDayDatasets)[number];

export type ReportDataset = StoreDayDataset | 'store_days' | 'stores';

/** Every dataset, in the order the README describes them. */
export const reportDatasets: readonly ReportDataset[] = [...storeDayDatasets, 'store_days', 'stores'];
