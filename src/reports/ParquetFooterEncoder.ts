import type { ParquetFooterWriter, ParquetStatisticsConverter, ParquetWriterModule, SchemaElement } from './loadParquetWriter.js';
import type { ParquetRowGroup } from './ParquetFileBuilder.js';

type ByteWriter = InstanceType<ParquetWriterModule['ByteWriter']>;
type FileMetaData = Parameters<ParquetFooterWriter>[1];
type ColumnMetaData = NonNullable<ParquetRowGroup['columns'][number]['meta_data']>;

// Thrift compact protocol field types.
const TRUE = 1;
const FALSE = 2;
const I32 = 5;
const I64 = 6;
const DOUBLE = 7;
const BINARY = 8;
const LIST = 9;
const STRUCT = 12;

/*
 * Positions in the Parquet format's Thrift enums (parquet.thrift), for the values a report file's
 * column chunks carry.
 */
const physicalTypes = ['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'];
const encodings = [
  'PLAIN',
  'GROUP_VAR_INT',
  'PLAIN_DICTIONARY',
  'RLE',
  'BIT_PACKED',
  'DELTA_BINARY_PACKED',
  'DELTA_LENGTH_BYTE_ARRAY',
  'DELTA_BYTE_ARRAY',
  'RLE_DICTIONARY',
  'BYTE_STREAM_SPLIT',
];
const codecs = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'LZO', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'];
const pageTypes = ['DATA_PAGE', 'INDEX_PAGE', 'DICTIONARY_PAGE', 'DATA_PAGE_V2'];

/** Column-chunk fields the encoder does not write: a row group with any of them goes to the library's writer. */
const unsupportedChunkFields = ['file_path', 'offset_index_offset', 'offset_index_length', 'column_index_offset', 'column_index_length'];
const unsupportedMetaFields = [
  'key_value_metadata',
  'index_page_offset',
  'bloom_filter_offset',
  'bloom_filter_length',
  'size_statistics',
  'geospatial_statistics',
];

/**
 * A row group's metadata encoded once, as the footer will carry it, except for its file offsets:
 * the RowGroup struct in the Thrift compact protocol with a hole wherever an offset goes. Placing
 * the group in a file only writes the offsets, moved to where its bytes sit, into the holes: no
 * object is built and no field encoded again. A staged fragment keeps its row groups this way.
 */
export interface EncodedRowGroup {
  /** The struct's bytes around the holes. */
  readonly bytes: Uint8Array;
  readonly numRows: bigint;
  /** Pairs, in order: the position in `bytes` where an offset goes, and the offset counted from the start of the part. */
  readonly holes: readonly number[];
}

/** A row group at its place in a file: its offsets move by `shift` bytes. */
export interface PlacedRowGroup {
  readonly group: EncodedRowGroup;
  readonly shift: number;
}

/** What a file's footer carries besides its row groups. */
export type FooterFields = Omit<FileMetaData, 'num_rows' | 'row_groups'>;

/**
 * A key-value value that differs from file to file of one dataset: given as the value of one
 * entry of the fields, it is kept in the dataset's template as a slot, and each footer writes
 * its own value of the same length there.
 */
export const footerValueSlot = '*'.repeat(64);

const utf8 = new TextEncoder();
const slotBytes = utf8.encode(footerValueSlot);

/** Field 3 (num_rows, i64 0) then field 4 (row_groups, an empty list) of a footer without row groups. */
const emptyRowGroupsBytes = Uint8Array.of(0x16, 0, 0x19, 0);

interface FooterTemplate {
  readonly head: Uint8Array;
  readonly tail: Uint8Array;
  /** Where in `tail` the {@link footerValueSlot} is, when the fields hold one. */
  readonly slotAt?: number;
}

/**
 * Writes the footer (FileMetaData, then its length) of a report file assembled from pre-encoded
 * row groups, byte for byte as the Parquet library's footer writer does, in a fraction of its
 * time: the library serialises every field through a generic path (a regular expression per field
 * name), which on a 20,000-transaction day (three files of 40 row groups of up to 40 columns)
 * cost as much as the rest of assembling the files.
 *
 * The fields before and after the row groups (schema, key-value metadata, created_by, column
 * orders) are the same for every file of a dataset: they are written once by the library, with no
 * row group, and kept. Only num_rows and the row groups are encoded here, each row group once
 * ({@link encodeRowGroup}) however often it is placed. A row group with a field this encoder does
 * not write is refused with an error rather than written differently from the library (a test
 * compares the two on every dataset, so a library version that writes a new field is caught there).
 */
export class ParquetFooterEncoder {
  private readonly templates = new Map<string, FooterTemplate>();

  constructor(
    private readonly module: ParquetWriterModule,
    private readonly writeFooter: ParquetFooterWriter,
    private readonly convertStatistics: ParquetStatisticsConverter,
  ) {}

  /**
   * Appends the footer of a file whose row groups were encoded beforehand (num_rows is their sum).
   * `slotValue` is this file's value of the entry whose value in `fields` is {@link footerValueSlot}.
   */
  writeEncoded(writer: ByteWriter, key: string, fields: FooterFields, groups: readonly PlacedRowGroup[], slotValue?: string): void {
    const template = this.template(key, fields);
    const slot = slotValue === undefined ? undefined : utf8.encode(slotValue);
    if ((template.slotAt === undefined) !== (slot === undefined) || (slot !== undefined && slot.length !== slotBytes.length)) {
      throw new Error(`the report footer of ${key} needs a value of ${slotBytes.length} bytes exactly where its fields hold the slot`);
    }
    let rows = 0n;
    for (const { group } of groups) rows += group.numRows;
    const start = writer.offset;
    writer.appendBytes(template.head);
    // Field 3 (num_rows) and field 4 (row_groups) follow field 2 (schema): deltas of one.
    writer.appendUint8(0x10 | I64);
    appendZigZag64(writer, rows);
    writer.appendUint8(0x10 | LIST);
    appendListHeader(writer, groups.length, STRUCT);
    for (const { group, shift } of groups) {
      const { bytes, holes } = group;
      let from = 0;
      for (let i = 0; i + 1 < holes.length; i += 2) {
        const at = holes[i] ?? from;
        writer.appendBytes(bytes.subarray(from, at));
        appendZigZagExact(writer, (holes[i + 1] ?? 0) + shift);
        from = at;
      }
      writer.appendBytes(bytes.subarray(from));
    }
    if (slot === undefined || template.slotAt === undefined) {
      writer.appendBytes(template.tail);
    } else {
      writer.appendBytes(template.tail.subarray(0, template.slotAt));
      writer.appendBytes(slot);
      writer.appendBytes(template.tail.subarray(template.slotAt + slot.length));
    }
    writer.appendUint32(writer.offset - start);
  }

  /** A byte writer of the library's kind, for a footer to go into. */
  byteWriter(): ByteWriter {
    return new this.module.ByteWriter(64 * 1024);
  }

  /** A row group of a file with schema `schema`, encoded for {@link writeEncoded} (one encoded already is returned as it is). */
  encodeRowGroup(group: ParquetRowGroup | EncodedRowGroup, schema: readonly SchemaElement[]): EncodedRowGroup {
    return 'holes' in group ? group : this.encodeGroup(group, schemaElements(schema));
  }

  /**
   * The library's footer with no row group, split around num_rows and the row-group list: field 3
   * (i64 0: `16 00`) followed by field 4 (an empty list: `19 00`). No schema field is an i64, so the
   * bytes `16` can only start field 3; a footer without exactly one match cannot be split.
   */
  private template(key: string, fields: FooterFields): FooterTemplate {
    let template = this.templates.get(key);
    if (template !== undefined) return template;
    const writer = new this.module.ByteWriter();
    this.writeFooter(writer, { ...fields, num_rows: 0n, row_groups: [] });
    const bytes = writer.getBytes().subarray(0, writer.offset - 4);
    const marks = occurrences(bytes, emptyRowGroupsBytes);
    const [at] = marks;
    if (marks.length !== 1 || at === undefined) throw new Error(`the report footer of ${key} cannot be split around its row groups`);
    const tail = bytes.slice(at + emptyRowGroupsBytes.length);
    template = { head: bytes.slice(0, at), tail };
    if (fields.key_value_metadata?.some((entry) => entry.value === footerValueSlot)) {
      const slots = occurrences(tail, slotBytes);
      const [slotAt] = slots;
      if (slots.length !== 1 || slotAt === undefined) throw new Error(`the report footer of ${key} does not hold its slot exactly once`);
      template = { ...template, slotAt };
    }
    this.templates.set(key, template);
    return template;
  }

  private encodeGroup(group: ParquetRowGroup, elements: ReadonlyMap<string, SchemaElement>): EncodedRowGroup {
    if (!supported(group)) throw new Error('a report row group carries a field the footer encoder does not write');
    const writer = new this.module.ByteWriter(4096);
    const holes: number[] = [];
    const fields = new StructWriter(writer, holes);
    fields.header(1, LIST);
    appendListHeader(writer, group.columns.length, STRUCT);
    for (const chunk of group.columns) {
      const chunkFields = new StructWriter(writer, holes);
      chunkFields.offset(2, chunk.file_offset);
      if (chunk.meta_data) {
        chunkFields.header(3, STRUCT);
        this.columnMetaData(writer, holes, chunk.meta_data, elements);
      }
      chunkFields.end();
    }
    fields.value(2, group.total_byte_size);
    fields.value(3, group.num_rows);
    fields.offset(5, group.file_offset);
    fields.value(6, group.total_compressed_size);
    fields.end();
    return { bytes: writer.getBytes().slice(0, writer.offset), numRows: group.num_rows, holes };
  }

  private columnMetaData(writer: ByteWriter, holes: number[], meta: ColumnMetaData, elements: ReadonlyMap<string, SchemaElement>): void {
    const fields = new StructWriter(writer, holes);
    fields.value(1, physicalTypes.indexOf(meta.type));
    fields.header(2, LIST);
    appendListHeader(writer, meta.encodings.length, meta.encodings.length === 0 ? 0 : I32);
    for (const encoding of meta.encodings) appendZigZag32(writer, encodings.indexOf(encoding));
    fields.header(3, LIST);
    appendListHeader(writer, meta.path_in_schema.length, meta.path_in_schema.length === 0 ? 0 : BINARY);
    for (const name of meta.path_in_schema) appendBinary(writer, name);
    fields.value(4, codecs.indexOf(meta.codec));
    fields.value(5, meta.num_values);
    fields.value(6, meta.total_uncompressed_size);
    fields.value(7, meta.total_compressed_size);
    fields.offset(9, meta.data_page_offset);
    fields.offset(11, meta.dictionary_page_offset);
    if (meta.statistics) {
      const element = elements.get(meta.path_in_schema.join('.'));
      if (!element) throw new Error(`a report row group names a column the schema lacks: ${meta.path_in_schema.join('.')}`);
      const statistics = this.convertStatistics(meta.statistics, element) as Record<string, unknown>;
      fields.header(12, STRUCT);
      const statisticsFields = new StructWriter(writer, holes);
      for (let id = 1; id <= 9; id++) statisticsFields.value(id, statistics[`field_${id}`]);
      statisticsFields.end();
    }
    if (meta.encoding_stats) {
      fields.header(13, LIST);
      appendListHeader(writer, meta.encoding_stats.length, meta.encoding_stats.length === 0 ? 0 : STRUCT);
      for (const stat of meta.encoding_stats) {
        const statFields = new StructWriter(writer, holes);
        statFields.value(1, pageTypes.indexOf(stat.page_type));
        statFields.value(2, encodings.indexOf(stat.encoding));
        statFields.value(3, stat.count);
        statFields.end();
      }
    }
    fields.end();
  }
}

/** A schema's elements by column path (the root element left out). */
function schemaElements(schema: readonly SchemaElement[]): ReadonlyMap<string, SchemaElement> {
  return new Map(schema.slice(1).map((element) => [element.name, element]));
}

function supported(group: ParquetRowGroup): boolean {
  if (group.sorting_columns !== undefined) return false;
  return group.columns.every((chunk) => {
    const record = chunk as unknown as Record<string, unknown>;
    if (unsupportedChunkFields.some((name) => record[name] !== undefined)) return false;
    const meta = chunk.meta_data as unknown as Record<string, unknown> | undefined;
    return meta === undefined || unsupportedMetaFields.every((name) => meta[name] === undefined);
  });
}

/** The fields of one struct, in ascending id order, each with the compact protocol's delta header. */
class StructWriter {
  private last = 0;

  constructor(
    private readonly writer: ByteWriter,
    private readonly holes: number[],
  ) {}

  header(id: number, type: number): void {
    const delta = id - this.last;
    if (delta > 0 && delta <= 15) {
      this.writer.appendUint8((delta << 4) | type);
    } else {
      this.writer.appendUint8(type);
      appendZigZag32(this.writer, id);
    }
    this.last = id;
  }

  /** A scalar field typed by its JavaScript value, as the library types it; undefined is left out. */
  value(id: number, value: unknown): void {
    if (value === undefined) return;
    if (value === true || value === false) {
      this.header(id, value ? TRUE : FALSE);
    } else if (typeof value === 'bigint') {
      this.header(id, I64);
      appendZigZag64(this.writer, value);
    } else if (typeof value === 'number' && Number.isInteger(value)) {
      this.header(id, I32);
      appendZigZag32(this.writer, value);
    } else if (typeof value === 'number') {
      this.header(id, DOUBLE);
      this.writer.appendFloat64(value);
    } else if (typeof value === 'string' || value instanceof Uint8Array) {
      this.header(id, BINARY);
      appendBinary(this.writer, value);
    } else {
      throw new Error(`a report footer field ${id} holds a value of an unexpected type`);
    }
  }

  /** An i64 file offset: its header now, its value left as a hole (see {@link EncodedRowGroup}); undefined is left out. */
  offset(id: number, value: bigint | undefined): void {
    if (value === undefined) return;
    const offset = Number(value);
    if (!Number.isSafeInteger(offset)) throw new Error(`a report row group's file offset is out of range: ${value.toString()}`);
    this.header(id, I64);
    this.holes.push(this.writer.offset, offset);
  }

  end(): void {
    this.writer.appendUint8(0);
  }
}

function appendBinary(writer: ByteWriter, value: string | Uint8Array): void {
  const bytes = typeof value === 'string' ? utf8.encode(value) : value;
  writer.appendVarInt(bytes.length);
  writer.appendBytes(bytes);
}

function appendListHeader(writer: ByteWriter, size: number, type: number): void {
  if (size > 14) {
    writer.appendUint8(0xf0 | type);
    writer.appendVarInt(size);
  } else {
    writer.appendUint8((size << 4) | type);
  }
}

function appendZigZag32(writer: ByteWriter, value: number): void {
  writer.appendVarInt((value << 1) ^ (value >> 31));
}

/** Zigzag varint of an i64: in number arithmetic while it is exact (every offset and size), else in bigint. */
function appendZigZag64(writer: ByteWriter, value: bigint): void {
  if (value >= -maxExact && value <= maxExact) appendZigZagExact(writer, Number(value));
  else writer.appendZigZag(value);
}

/** Zigzag varint of an i64 held as a number (a file offset). */
function appendZigZagExact(writer: ByteWriter, n: number): void {
  if (!Number.isSafeInteger(n)) throw new Error(`a report file offset is out of range: ${String(n)}`);
  if (Math.abs(n) > maxExactNumber) {
    writer.appendZigZag(BigInt(n));
    return;
  }
  let zigzag = n >= 0 ? n * 2 : -n * 2 - 1;
  while (zigzag >= 0x80) {
    writer.appendUint8((zigzag % 0x80) | 0x80);
    zigzag = Math.floor(zigzag / 0x80);
  }
  writer.appendUint8(zigzag);
}

/** Magnitudes whose zigzag form (twice the value) is still an exact double. */
const maxExact = BigInt(Number.MAX_SAFE_INTEGER) / 2n;
const maxExactNumber = Number(maxExact);

/** Every position in `bytes` where `sought` starts. */
function occurrences(bytes: Uint8Array, sought: Uint8Array): number[] {
  const found: number[] = [];
  for (let at = 0; at + sought.length <= bytes.length; at++) {
    let i = 0;
    while (i < sought.length && bytes[at + i] === sought[i]) i++;
    if (i === sought.length) found.push(at);
  }
  return found;
}
