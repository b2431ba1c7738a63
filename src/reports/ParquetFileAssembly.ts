import type { ParquetFooterWriter, ParquetWriterModule } from './loadParquetWriter.js';
import { parquetSchema } from './parquetSchema.js';
import { reportFileCreatedBy, reportFileMetadata, shiftRowGroup, type ParquetPart, type ParquetRowGroup } from './ParquetFileBuilder.js';
import type { ReportColumn } from './reportColumns.js';

/** `PAR1`: the first and last four bytes of every Parquet file. */
const parquetMagic = Uint8Array.of(0x50, 0x41, 0x52, 0x31);

/** Writes a footer for the file's metadata: the library's writer, or the encoder's for this dataset (same bytes, faster). */
export type AssemblyFooterWriter = (
  writer: InstanceType<ParquetWriterModule['ByteWriter']>,
  metadata: Parameters<ParquetFooterWriter>[1],
) => void;

/**
 * One Parquet file built from parts encoded separately with the same columns, one part at a time:
 * each part's row groups are kept as they are (the bytes are not copied) and their metadata is
 * moved to where they will sit in the file; the footer listing all of them comes last. The file
 * is handed out as its pieces in order, never copied into one buffer, so a store-day's files cost
 * their bytes once, and a caller can let go of each part's other data (its fragment) as soon as
 * the part is appended.
 */
export class ParquetFileAssembly {
  private readonly pieces: Uint8Array[] = [parquetMagic];
  private readonly rowGroups: ParquetRowGroup[] = [];
  private offset = parquetMagic.length;
  private rows = 0n;

  constructor(
    private readonly module: ParquetWriterModule,
    private readonly writeFooter: AssemblyFooterWriter,
    private readonly dataset: string,
    private readonly columns: readonly ReportColumn[],
  ) {}

  /** Appends a part's row groups after those appended before. A part without rows adds nothing. */
  append(part: ParquetPart): void {
    if (part.rowCount === 0) return;
    this.pieces.push(part.bytes);
    for (const group of part.rowGroups) {
      this.rowGroups.push(shiftRowGroup(group, this.offset));
      this.rows += group.num_rows;
    }
    this.offset += part.bytes.length;
  }

  /** The file's pieces in order (magic, row groups, footer with closing magic); undefined when no part had a row. */
  finish(): Uint8Array[] | undefined {
    if (this.pieces.length === 1) return undefined;
    const writer = new this.module.ByteWriter(64 * 1024);
    this.writeFooter(writer, {
      version: 2,
      created_by: reportFileCreatedBy,
      schema: parquetSchema(this.columns),
      num_rows: this.rows,
      row_groups: this.rowGroups,
      key_value_metadata: reportFileMetadata(this.dataset),
    } as Parameters<ParquetFooterWriter>[1]);
    writer.appendBytes(parquetMagic);
    writer.finish();
    return [...this.pieces, writer.getBytes()];
  }
}
