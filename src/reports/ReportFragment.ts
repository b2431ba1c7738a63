import type { PaymentDirection } from '../domain/reconciliation/paymentDirection.js';
import type { ParquetPart, ParquetRowGroup } from './ParquetFileBuilder.js';
import { storeDayDatasets, type StoreDayDataset } from './reportDatasets.js';
import type { StoreDayCounts } from './StoreDayReportBuilder.js';
import type { StoreDaySales } from './StoreDaySales.js';

/**
 * Version of the fragment layout and of the rows inside it. A fragment of another version (built
 * before a change of the columns, the conversion or the standard list) is not used but rebuilt.
 */
const fragmentFormat = 1;

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

interface FragmentHeader extends Omit<ReportFragment, 'parts'> {
  readonly format: number;
  readonly parts: Readonly<Record<string, { readonly length: number; readonly rowCount: number; readonly rowGroups: unknown } | null>>;
}

/** `POSF`: a fragment blob starts with these bytes, then the header's length and the header. */
const magic = 0x46534f50;

/**
 * A fragment as one blob: magic, the JSON header's length (uint32), the header (batch, what the
 * rows were built from, row-group metadata), then each dataset's encoded row groups in turn.
 */
export function encodeFragment(fragment: ReportFragment): Uint8Array {
  const parts: Record<string, FragmentHeader['parts'][string]> = {};
  const bodies: Uint8Array[] = [];
  for (const dataset of storeDayDatasets) {
    const part = fragment.parts[dataset];
    parts[dataset] = part ? { length: part.bytes.length, rowCount: part.rowCount, rowGroups: part.rowGroups } : null;
    if (part) bodies.push(part.bytes);
  }
  const header: FragmentHeader = { ...fragment, format: fragmentFormat, parts };
  const headerBytes = Buffer.from(JSON.stringify(header, tagValue), 'utf8');
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

/** The fragment in a blob; undefined when it is not one of the current format (it is rebuilt then). */
export function decodeFragment(bytes: Uint8Array): ReportFragment | undefined {
  if (bytes.length < 8) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== magic) return undefined;
  const headerLength = view.getUint32(4, true);
  if (8 + headerLength > bytes.length) return undefined;
  // Parsed without a reviver: only the row-group metadata carries tagged values, and walking it
  // alone is several times faster than a reviver called on every value of the header.
  const header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 8, headerLength).toString('utf8')) as FragmentHeader;
  if (header.format !== fragmentFormat) return undefined;
  const parts = {} as Record<StoreDayDataset, ParquetPart | undefined>;
  let offset = 8 + headerLength;
  for (const dataset of storeDayDatasets) {
    const part = header.parts[dataset];
    if (!part) {
      parts[dataset] = undefined;
      continue;
    }
    parts[dataset] = {
      bytes: bytes.subarray(offset, offset + part.length),
      rowCount: part.rowCount,
      rowGroups: untagTree(part.rowGroups) as ParquetRowGroup[],
    };
    offset += part.length;
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

/*
 * Row-group metadata holds bigints (offsets, sizes, INT64 statistics) and byte arrays (string
 * statistics), which JSON has no type for: they are written as tagged objects and read back as
 * the same types, so the footer written from them is the one the writer would have written.
 */
function tagValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  if (typeof value === 'number' && Object.is(value, -0)) return { $number: '-0' };
  return value;
}

/** Replaces, in place, every tagged object of a parsed JSON tree by the value it stands for. */
function untagTree(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = untagTree(value[i]);
    return value;
  }
  const tagged = value as Record<string, unknown>;
  const keys = Object.keys(tagged);
  if (keys.length === 1) {
    if (typeof tagged.$bigint === 'string') return BigInt(tagged.$bigint);
    if (typeof tagged.$bytes === 'string') return new Uint8Array(Buffer.from(tagged.$bytes, 'base64'));
    if (tagged.$number === '-0') return -0;
  }
  for (const key of keys) tagged[key] = untagTree(tagged[key]);
  return value;
}
