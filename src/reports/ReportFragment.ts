import type { PaymentDirection } from '../domain/reconciliation/paymentDirection.js';
import type { ParquetPart } from './ParquetFileBuilder.js';
import type { EncodedRowGroup, ParquetFooterEncoder } from './ParquetFooterEncoder.js';
import { parquetSchema } from './parquetSchema.js';
import { reportColumns } from './reportColumns.js';
import { storeDayDatasets, type StoreDayDataset } from './reportDatasets.js';
import type { StoreDayCounts } from './StoreDayReportBuilder.js';
import type { StoreDaySales } from './StoreDaySales.js';

/**
 * Version of the fragment layout and of the rows inside it. A fragment of another version (built
 * before a change of the columns, the conversion or the standard list) is not used but rebuilt.
 */
const fragmentFormat = 2;

/** A transaction in a fragment: trade_record_id, version, last_modified_at. */
export type FragmentTransaction = readonly [string, number, string];

/** What one batch contributes to its store-day's files, and what those rows were built from. */
export interface ReportFragmentContent {
  /** The transactions converted, in batch order. */
  readonly transactions: readonly FragmentTransaction[];
  /** Each source code met, with the standard code the mapping gave it then (null: none). */
  readonly codes: readonly (readonly [string, string | null])[];
  /** Each payment_type met, with the direction it had then (null: unknown). */
  readonly paymentTypes: readonly (readonly [string, PaymentDirection | null])[];
  readonly counts: StoreDayCounts;
  readonly sales: StoreDaySales;
  readonly parts: Readonly<Record<StoreDayDataset, ParquetPart | undefined>>;
}

export interface ReportFragment extends ReportFragmentContent {
  readonly batchId: string;
  readonly batchSeq: number;
}

/** How a part's row groups are described in the header; their encoded bytes follow it. */
interface HeaderRowGroup {
  /** num_rows, in decimal (an i64). */
  readonly numRows: string;
  /** Bytes of the encoded row group. */
  readonly length: number;
  readonly holes: readonly number[];
}

interface FragmentHeader extends Omit<ReportFragment, 'parts'> {
  readonly format: number;
  readonly parts: Readonly<
    Record<string, { readonly length: number; readonly rowCount: number; readonly rowGroups: readonly HeaderRowGroup[] } | null>
  >;
}

/** `POSF`: a fragment blob starts with these bytes, then the header's length and the header. */
const magic = 0x46534f50;

/**
 * A fragment as one blob: magic, the JSON header's length (uint32), the header (batch, what the
 * rows were built from, each part's row counts and lengths), then for each dataset in turn its row
 * groups' metadata, already encoded for the footer (see {@link EncodedRowGroup}), and its encoded
 * row groups. Decoding parses only the small JSON header: the metadata stays bytes until a
 * footer copies it.
 */
export function encodeFragment(fragment: ReportFragment, encoder: ParquetFooterEncoder): Uint8Array {
  const parts: Record<string, FragmentHeader['parts'][string]> = {};
  const bodies: Uint8Array[] = [];
  for (const dataset of storeDayDatasets) {
    const part = fragment.parts[dataset];
    if (!part) {
      parts[dataset] = null;
      continue;
    }
    const schema = parquetSchema(reportColumns[dataset]);
    const groups = part.rowGroups.map((group) => encoder.encodeRowGroup(group, schema));
    parts[dataset] = {
      length: part.bytes.length,
      rowCount: part.rowCount,
      rowGroups: groups.map((group) => ({ numRows: group.numRows.toString(), length: group.bytes.length, holes: group.holes })),
    };
    for (const group of groups) bodies.push(group.bytes);
    bodies.push(part.bytes);
  }
  const header: FragmentHeader = { ...fragment, format: fragmentFormat, parts };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const out = new Uint8Array(8 + headerBytes.length + bodies.reduce((n, b) => n + b.length, 0));
  const view = new DataView(out.buffer);
  view.setUint32(0, magic, true);
  view.setUint32(4, headerBytes.length, true);
  out.set(headerBytes, 8);
  let offset = 8 + headerBytes.length;
  for (const body of bodies) {
    out.set(body, offset);
    offset += body.length;
  }
  return out;
}

/**
 * The fragment in a blob; undefined when it is not one of the current format, or does not hold
 * together (it is rebuilt from its raw batch then).
 */
export function decodeFragment(bytes: Uint8Array): ReportFragment | undefined {
  try {
    return decode(bytes);
  } catch {
    // A header that is not JSON, or not of this layout.
    return undefined;
  }
}

function decode(bytes: Uint8Array): ReportFragment | undefined {
  if (bytes.length < 8) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== magic) return undefined;
  const headerLength = view.getUint32(4, true);
  if (8 + headerLength > bytes.length) return undefined;
  const header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 8, headerLength).toString('utf8')) as FragmentHeader;
  if (header.format !== fragmentFormat) return undefined;
  const parts = {} as Record<StoreDayDataset, ParquetPart | undefined>;
  let offset = 8 + headerLength;
  const take = (length: number): Uint8Array => {
    const slice = bytes.subarray(offset, offset + length);
    offset += length;
    return slice;
  };
  for (const dataset of storeDayDatasets) {
    const part = header.parts[dataset];
    if (!part) {
      parts[dataset] = undefined;
      continue;
    }
    const rowGroups: EncodedRowGroup[] = [];
    for (const group of part.rowGroups) {
      const encoded = { bytes: take(group.length), numRows: BigInt(group.numRows), holes: group.holes };
      if (!holesFit(encoded)) return undefined;
      rowGroups.push(encoded);
    }
    parts[dataset] = { bytes: take(part.length), rowCount: part.rowCount, rowGroups };
  }
  if (offset !== bytes.length) return undefined;
  return {
    batchId: header.batchId,
    batchSeq: header.batchSeq,
    transactions: header.transactions,
    codes: header.codes,
    paymentTypes: header.paymentTypes,
    counts: header.counts,
    sales: header.sales,
    parts,
  };
}

/** Whether a row group's holes are pairs of an increasing position inside its bytes and an offset. */
function holesFit(group: EncodedRowGroup): boolean {
  const holes: unknown = group.holes;
  if (!Array.isArray(holes) || holes.length % 2 !== 0) return false;
  let last = 0;
  for (let i = 0; i < holes.length; i += 2) {
    const at: unknown = holes[i];
    const offset: unknown = holes[i + 1];
    if (typeof at !== 'number' || !Number.isInteger(at) || at < last || at > group.bytes.length || !Number.isSafeInteger(offset))
      return false;
    last = at;
  }
  return true;
}
