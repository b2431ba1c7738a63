import type { Hash } from 'node:crypto';
import { parquetSchema } from './parquetSchema.js';
import { reportFileCreatedBy, reportFileMetadata, type ParquetPart } from './ParquetFileBuilder.js';
import { footerValueSlot, type FooterFields, type ParquetFooterEncoder, type PlacedRowGroup } from './ParquetFooterEncoder.js';
import type { ReportColumn } from './reportColumns.js';

/** The key of the footer entry that names the set of files a file was built in (storeDayFilesId). */
const filesIdMetadataKey = 'pos.report_files_id';

/** `PAR1`: the first and last four bytes of every Parquet file. */
const parquetMagic = Uint8Array.of(0x50, 0x41, 0x52, 0x31);

/**
 * One Parquet file built from parts encoded separately with the same columns, one part at a time:
 * each part's row groups are kept as they are (the bytes are not copied) and their metadata,
 * encoded for the footer once, is placed where they will sit in the file; the footer listing all
 * of them comes last. The file is handed out as its pieces in order, never copied into one
 * buffer, so a store-day's files cost their bytes once, and a caller can let go of each part's
 * other data (its fragment) as soon as the part is appended.
 */
export class ParquetFileAssembly {
  private readonly pieces: Uint8Array[] = [parquetMagic];
  private readonly rowGroups: PlacedRowGroup[] = [];
  private readonly fields: FooterFields;
  private offset = parquetMagic.length;

  constructor(
    private readonly encoder: ParquetFooterEncoder,
    private readonly dataset: string,
    columns: readonly ReportColumn[],
  ) {
    this.fields = {
      version: 2,
      created_by: reportFileCreatedBy,
      schema: parquetSchema(columns),
      key_value_metadata: [...reportFileMetadata(dataset), { key: filesIdMetadataKey, value: footerValueSlot }],
    } as FooterFields;
  }

  /** Appends a part's row groups after those appended before. A part without rows adds nothing. */
  append(part: ParquetPart): void {
    if (part.rowCount === 0) return;
    this.pieces.push(part.bytes);
    for (const group of part.rowGroups)
      this.rowGroups.push({ group: this.encoder.encodeRowGroup(group, this.fields.schema), shift: this.offset });
    this.offset += part.bytes.length;
  }

  /**
   * Adds the file's content but its footer to `hash`: the dataset, then each piece with its length
   * before it, so that no two different files add the same bytes. The footer follows from the row
   * groups and the dataset, but for the files id it carries.
   */
  hashInto(hash: Hash): void {
    hash.update(`${this.dataset}\n`);
    for (const piece of this.pieces.slice(1)) hash.update(`${piece.length}\n`).update(piece);
  }

  /**
   * The file's pieces in order (magic, row groups, footer with closing magic), its footer naming
   * `filesId` (64 characters) under {@link filesIdMetadataKey}; undefined when no part had a row.
   */
  finish(filesId: string): Uint8Array[] | undefined {
    if (this.pieces.length === 1) return undefined;
    const writer = this.encoder.byteWriter();
    this.encoder.writeEncoded(writer, this.dataset, this.fields, this.rowGroups, filesId);
    writer.appendBytes(parquetMagic);
    writer.finish();
    return [...this.pieces, writer.getBytes()];
  }
}
