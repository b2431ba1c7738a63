import type { MappingEntry } from '../domain/model/payloads.js';
import type { StandardTransactionType } from '../domain/reference/standardTransactionTypes.js';
import type { ParquetWriterModule } from './loadParquetWriter.js';
import { ParquetFileBuilder } from './ParquetFileBuilder.js';
import { reportColumns } from './reportColumns.js';
import { timestampMicros } from './timestampMicros.js';

/** A partner's mapping in effect: the upload that set it and its entries. */
export interface MappingInEffect {
  readonly batchId: string;
  readonly updatedAt: string | null;
  readonly entries: readonly MappingEntry[];
}

/**
 * The transaction-type mappings file of one partner: a row per source code of its mapping in
 * effect, in the order given (MasterDataReports sorts them by source code, the order its digest is
 * taken in), each with what the standard list says of the code it names, stamped with `snapshotAt`.
 * Undefined when the partner has no mapping.
 */
export function encodeTransactionTypeMappings(
  module: ParquetWriterModule,
  partnerId: string,
  mapping: MappingInEffect | undefined,
  standardTypes: ReadonlyMap<string, StandardTransactionType>,
  snapshotAt: Date,
): Uint8Array | undefined {
  if (mapping === undefined) return undefined;
  const file = new ParquetFileBuilder(module, { dataset: 'transaction_type_mappings', columns: reportColumns.transaction_type_mappings });
  const snapshot = BigInt(snapshotAt.getTime()) * 1000n;
  const updatedAt = mapping.updatedAt === null ? null : (timestampMicros(mapping.updatedAt)?.utc ?? null);
  for (const entry of mapping.entries) {
    const standard = standardTypes.get(entry.standard_code);
    file.append({
      partner_id: partnerId,
      source_transaction_type: entry.source_code,
      source_name: entry.source_name ?? null,
      standard_type: entry.standard_code,
      is_standard: standard !== undefined,
      is_revenue: standard?.is_revenue ?? null,
      mapping_batch_id: mapping.batchId,
      mapping_updated_at: updatedAt,
      snapshot_at: snapshot,
    });
  }
  return file.finish();
}
