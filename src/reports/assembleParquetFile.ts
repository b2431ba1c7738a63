import type { ParquetFooterWriter, ParquetWriterModule } from './loadParquetWriter.js';
import { parquetSchema } from './parquetSchema.js';
import { reportFileCreatedBy, reportFileMetadata, shiftRowGroup, type ParquetPart } from './ParquetFileBuilder.js';
import type { ReportColumn } from './reportColumns.js';

/** `PAR1`, little-endian: the first and last four bytes of every Parquet file. */
const parquetMagic = 0x31524150;

/**
 * One Parquet file from parts encoded separately with the same columns: the parts' row groups are
 * copied one after another and a footer listing all of them, at their new offsets, is written.
 * Nothing is decoded or encoded again, so a store-day is assembled in the time its bytes take to
 * copy. Undefined when no part has a row.
 */
export function assembleParquetFile(
  module: ParquetWriterModule,
  /** The library's footer writer, or the encoder's for this dataset (same bytes, faster). */
  writeFooter: (writer: InstanceType<ParquetWriterModule['ByteWriter']>, metadata: Parameters<ParquetFooterWriter>[1]) => void,
  dataset: string,
  columns: readonly ReportColumn[],
  parts: readonly ParquetPart[],
): Uint8Array | undefined {
  const used = parts.filter((part) => part.rowCount > 0);
  if (used.length === 0) return undefined;
  const writer = new module.ByteWriter(used.reduce((n, part) => n + part.bytes.length, 64 * 1024));
  writer.appendUint32(parquetMagic);
  const rowGroups = [];
  let rows = 0n;
  for (const part of used) {
    const start = writer.offset;
    writer.appendBytes(part.bytes);
    for (const group of part.rowGroups) {
      rowGroups.push(shiftRowGroup(group, start));
      rows += group.num_rows;
    }
  }
  writeFooter(writer, {
    version: 2,
    created_by: reportFileCreatedBy,
    schema: parquetSchema(columns),
    num_rows: rows,
    row_groups: rowGroups,
    key_value_metadata: reportFileMetadata(dataset),
  } as Parameters<ParquetFooterWriter>[1]);
  writer.appendUint32(parquetMagic);
  writer.finish();
  return writer.getBytes();
}
