import type { ParquetWriterModule } from './loadParquetWriter.js';
import type { EncodedRowGroup } from './ParquetFooterEncoder.js';
import { parquetSchema } from './parquetSchema.js';
import type { ReportColumn } from './reportColumns.js';

/**
 * Rows per row group. Measured on a generated 20,000-transaction day (230,000 lines): with 20,000
 * the whole build runs within a 64 MB old-generation heap; with 50,000 it does not.
 */
const defaultRowGroupRows = 20_000;

const encoder = new TextEncoder();
/** Distinct strings whose bytes are kept for reuse (bounded). */
const maxEncodedStrings = 100_000;

/**
 * A value as it goes into the file: bigint for amounts and quantities (already scaled), for
 * int64 columns and for timestamps (microseconds); number for dates (days) and int64 columns;
 * string, boolean, or a JSON-serialisable value for json columns; null for an absent optional value.
 */
export type ReportValue = string | number | bigint | boolean | null | undefined | readonly unknown[] | Readonly<Record<string, unknown>>;

export type ReportRow = Readonly<Record<string, ReportValue>>;

/** The encoded row groups of a file without its header and footer: a piece to concatenate with others. */
export interface ParquetPart {
  /** The row groups' bytes, as they follow the file's 4-byte header. */
  readonly bytes: Uint8Array;
  /**
   * Their metadata, with every offset counted from the start of `bytes`: as the writer left it, or
   * already encoded for the footer (a staged fragment's).
   */
  readonly rowGroups: readonly (ParquetRowGroup | EncodedRowGroup)[];
  readonly rowCount: number;
}

export type ParquetRowGroup = InstanceType<ParquetWriterModule['ParquetWriter']>['row_groups'][number];

/** Key-value metadata every report file carries. */
export function reportFileMetadata(dataset: string): { key: string; value: string }[] {
  return [
    { key: 'pos.dataset', value: dataset },
    { key: 'pos.schema_version', value: '1' },
  ];
}

export const reportFileCreatedBy = 'pos-ingestion-service reports';

/** Length of the `PAR1` magic a Parquet file starts with. */
const parquetHeaderBytes = 4;

export interface ParquetFileOptions {
  readonly dataset: string;
  readonly columns: readonly ReportColumn[];
  /** Rows buffered before they are encoded as one row group (bounds memory on large days). */
  readonly rowGroupRows?: number;
}

/**
 * Builds one Parquet file in memory, row by row. Rows are buffered column by column and encoded
 * as a row group every `rowGroupRows` rows, so a large store-day holds its encoded bytes plus one
 * row group of values, never every row at once.
 */
export class ParquetFileBuilder {
  private readonly columns: readonly ReportColumn[];
  private readonly rowGroupRows: number;
  private readonly writer: InstanceType<ParquetWriterModule['ByteWriter']>;
  private readonly parquet: InstanceType<ParquetWriterModule['ParquetWriter']>;
  private buffers: { readonly column: ReportColumn; values: unknown[] }[];
  private buffered = 0;
  private readonly encoded = new Map<string, Uint8Array>();
  private total = 0;

  constructor(module: ParquetWriterModule, options: ParquetFileOptions) {
    this.columns = options.columns;
    this.rowGroupRows = options.rowGroupRows ?? defaultRowGroupRows;
    this.writer = new module.ByteWriter();
    this.parquet = new module.ParquetWriter({
      writer: this.writer,
      schema: parquetSchema(options.columns),
      kvMetadata: reportFileMetadata(options.dataset),
      createdBy: reportFileCreatedBy,
    });
    this.buffers = this.emptyBuffers();
  }

  /** Rows appended so far. */
  get rowCount(): number {
    return this.total;
  }

  append(row: ReportRow): void {
    for (const buffer of this.buffers) {
      const { column } = buffer;
      let value: unknown = row[column.name];
      if (value === undefined || value === null) {
        if (!column.nullable) throw new Error(`report column ${column.name} is required`);
        value = null;
      } else if (column.type === 'int64' && typeof value === 'number') {
        value = BigInt(value);
      } else if (column.type === 'json') {
        value = this.utf8(JSON.stringify(value));
      } else if (column.type === 'string' && typeof value === 'string') {
        value = this.utf8(value);
      }
      buffer.values.push(value);
    }
    this.buffered += 1;
    this.total += 1;
    if (this.buffered >= this.rowGroupRows) this.flush();
  }

  /**
   * A string's UTF-8 bytes. Codes, names and ids repeat across a day's rows; one shared byte array
   * per distinct string spares the writer encoding each again and lets its dictionary see equal
   * values as the same object.
   */
  private utf8(text: string): Uint8Array {
    let bytes = this.encoded.get(text);
    if (bytes === undefined) {
      bytes = encoder.encode(text);
      if (this.encoded.size >= maxEncodedStrings) this.encoded.clear();
      this.encoded.set(text, bytes);
    }
    return bytes;
  }

  /** The file's bytes, or undefined when no row was appended (no file is written then). */
  finish(): Uint8Array | undefined {
    if (this.total === 0) return undefined;
    this.flush();
    synchronous(this.parquet.finish());
    return this.writer.getBytes();
  }

  /**
   * The encoded row groups without the file's header and footer, to be concatenated with other
   * parts of the same dataset into one file; undefined when no row was appended. Page indexes are
   * left out (they would sit after every row group); statistics stay in the row groups' metadata.
   */
  finishPart(): ParquetPart | undefined {
    if (this.total === 0) return undefined;
    this.flush();
    const bytes = this.writer.getBytes().slice(parquetHeaderBytes, this.writer.offset);
    const rowGroups = this.parquet.row_groups.map((group) => shiftRowGroup(group, -parquetHeaderBytes));
    return { bytes, rowGroups, rowCount: this.total };
  }

  private flush(): void {
    if (this.buffered === 0) return;
    const columnData = this.buffers.map(({ column, values }) => ({
      name: column.name,
      data: values,
      // A JSON column's min/max statistics would copy whole values into the footer.
      ...(column.type === 'json' ? { statistics: false } : {}),
    }));
    synchronous(this.parquet.write({ columnData, rowGroupSize: this.buffered }));
    this.buffers = this.emptyBuffers();
    this.buffered = 0;
  }

  private emptyBuffers(): { readonly column: ReportColumn; values: unknown[] }[] {
    return this.columns.map((column) => ({ column, values: [] }));
  }
}

/**
 * A copy of a row group's metadata with every file offset moved by `delta` bytes.
 * @internal for the test that places row groups by hand to compare.
 */
export function shiftRowGroup(group: ParquetRowGroup, delta: number): ParquetRowGroup {
  const by = BigInt(delta);
  return {
    ...group,
    ...(group.file_offset === undefined ? {} : { file_offset: group.file_offset + by }),
    columns: group.columns.map((chunk) => {
      if (
        chunk.offset_index_offset !== undefined ||
        chunk.column_index_offset !== undefined ||
        chunk.meta_data?.bloom_filter_offset !== undefined
      ) {
        throw new Error('a report row group to move carries page indexes or a bloom filter');
      }
      const meta = chunk.meta_data;
      return {
        ...chunk,
        file_offset: chunk.file_offset + by,
        ...(meta === undefined
          ? {}
          : {
              meta_data: {
                ...meta,
                data_page_offset: meta.data_page_offset + by,
                ...(meta.dictionary_page_offset === undefined ? {} : { dictionary_page_offset: meta.dictionary_page_offset + by }),
                ...(meta.index_page_offset === undefined ? {} : { index_page_offset: meta.index_page_offset + by }),
              },
            }),
      };
    }),
  };
}

/** A ByteWriter has no flush step, so the writer never has to wait: a promise here would be a change of the library. */
function synchronous(result: unknown): void {
  if (result instanceof Promise) throw new Error('the Parquet writer went asynchronous');
}
