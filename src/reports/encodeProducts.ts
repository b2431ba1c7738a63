import type { Product } from '../domain/model/payloads.js';
import type { ParquetWriterModule } from './loadParquetWriter.js';
import { ParquetFileBuilder } from './ParquetFileBuilder.js';
import { AMOUNT_PRECISION, AMOUNT_SCALE, reportColumns } from './reportColumns.js';
import { ReportDataError } from './ReportDataError.js';
import { timestampMicros } from './timestampMicros.js';
import { toScaledInteger } from './toScaledInteger.js';

/**
 * The products file of one partner: a row per product as stored, in the order given
 * (MasterDataReports sorts them by product_id, then store, the order its digest is taken in),
 * stamped with `snapshotAt`. Undefined when the partner has no product.
 */
export function encodeProducts(
  module: ParquetWriterModule,
  partnerId: string,
  products: readonly Product[],
  snapshotAt: Date,
): Uint8Array | undefined {
  const file = new ParquetFileBuilder(module, { dataset: 'products', columns: reportColumns.products });
  const snapshot = BigInt(snapshotAt.getTime()) * 1000n;
  for (const product of products) {
    const price = toScaledInteger(product.unit_price, AMOUNT_SCALE, AMOUNT_PRECISION);
    // Validated when received: a price outside the money type never reaches the table.
    if (price === undefined) throw new ReportDataError(`the unit_price of a product of partner ${partnerId} does not fit the money type`);
    file.append({
      partner_id: partnerId,
      product_id: product.product_id,
      store_id: product.store_id ?? null,
      sku: product.sku ?? null,
      name: product.name,
      category_id: product.category_id ?? null,
      category_name: product.category_name ?? null,
      unit_price: price,
      currency: product.currency,
      tax_category: product.tax_category ?? null,
      status: product.status,
      effective_from: product.effective_from === undefined ? null : (timestampMicros(product.effective_from)?.utc ?? null),
      version: product.version,
      last_modified_at: timestampMicros(product.last_modified_at)?.utc ?? null,
      product_type: product.product_type,
      modifier_group_ids: product.modifier_group_ids ?? null,
      combo_components: product.combo_components ?? null,
      snapshot_at: snapshot,
    });
  }
  return file.finish();
}
