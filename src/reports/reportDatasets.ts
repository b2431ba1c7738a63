/**
 * The curated datasets written for HQ. The first four are written per store-day
 * (`<dataset>/partner_id=/business_date=/store_id=/part-0.parquet`); `store_days` holds one row per
 * store of a partner and business date (`store_days/partner_id=/business_date=/part-0.parquet`);
 * `stores`, `products` and `transaction_type_mappings` one row per store registered for a
 * partner, per product it sent and per code of its mapping in effect
 * (`<dataset>/partner_id=/part-0.parquet`).
 */
export const storeDayDatasets = ['sales_transactions', 'sales_lines', 'sales_payments', 'unmapped_transactions'] as const;

export type StoreDayDataset = (typeof storeDayDatasets)[number];

/** The master-data datasets: one file per partner, `<dataset>/partner_id=/part-0.parquet`. */
export const partnerDatasets = ['stores', 'products', 'transaction_type_mappings'] as const;

export type PartnerDataset = (typeof partnerDatasets)[number];

export type ReportDataset = StoreDayDataset | 'store_days' | PartnerDataset;

/** Every dataset, in the order the README describes them. */
export const reportDatasets: readonly ReportDataset[] = [...storeDayDatasets, 'store_days', ...partnerDatasets];
