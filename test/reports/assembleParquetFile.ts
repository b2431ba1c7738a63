import { ParquetFileAssembly } from '../../src/reports/ParquetFileAssembly.js';
import type { ParquetPart } from '../../src/reports/ParquetFileBuilder.js';
import type { ParquetFooterEncoder } from '../../src/reports/ParquetFooterEncoder.js';
import type { ReportColumn } from '../../src/reports/reportColumns.js';

/**
 * One Parquet file from parts encoded separately with the same columns, in one buffer: the parts'
 * row groups one after another, then a footer listing all of them at their new offsets. Nothing
 * is decoded or encoded again; its footer names `filesId`. Undefined when no part has a row. (The service writes the pieces
 * of a {@link ParquetFileAssembly} without joining them; this is the same file in one piece.)
 */
export function assembleParquetFile(
  encoder: ParquetFooterEncoder,
  dataset: string,
  columns: readonly ReportColumn[],
  parts: readonly ParquetPart[],
  filesId: string,
): Uint8Array | undefined {
  const assembly = new ParquetFileAssembly(encoder, dataset, columns);
  for (const part of parts) assembly.append(part);
  const pieces = assembly.finish(filesId);
  return pieces && Buffer.concat(pieces);
}
