import type { TradeRecordBatch } from '../domain/model/payloads.js';
import type { ParquetWriterModule } from './loadParquetWriter.js';
import { ReportSourceError } from './ReportSourceError.js';
import type { ReportFragment } from './ReportFragment.js';
import { StoreDayReportBuilder, type StoreDayReportContext } from './StoreDayReportBuilder.js';

/** The versions to take from a batch: trade_record_id → version and last_modified_at. */
export type FragmentSelection = ReadonlyMap<string, { readonly version: number; readonly last_modified_at: string }>;

export interface BuiltFragment {
  readonly fragment: ReportFragment;
  /** Every transaction of the batch is in the fragment (it may stand for the batch in later builds). */
  readonly whole: boolean;
}

/**
 * Converts a stored raw batch into its report fragment: every transaction, or only those named by
 * `selection` (the latest versions of the day). The body was validated when it was received, so it
 * is parsed with plain JSON.parse.
 */
export function buildReportFragment(
  module: ParquetWriterModule,
  context: Omit<StoreDayReportContext, 'storeId' | 'businessDate'>,
  body: Uint8Array,
  selection?: FragmentSelection,
): BuiltFragment {
  let batch: Partial<TradeRecordBatch>;
  try {
    batch = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) as Partial<TradeRecordBatch>;
  } catch {
    throw new ReportSourceError('A stored raw batch is not valid JSON.');
  }
  const records = batch.trade_records;
  if (typeof batch.batch_id !== 'string' || typeof batch.batch_seq !== 'number' || !Array.isArray(records)) {
    throw new ReportSourceError('A stored raw batch is not a trade-record batch.');
  }
  const builder = new StoreDayReportBuilder(module, {
    ...context,
    storeId: batch.store_id ?? '',
    businessDate: batch.business_date ?? '',
  });
  let added = 0;
  for (const [index, record] of records.entries()) {
    if (selection) {
      const wanted = selection.get(record.trade_record_id);
      if (wanted?.version !== record.version || wanted.last_modified_at !== record.last_modified_at) continue;
    }
    builder.add(record, { batch_id: batch.batch_id, batch_seq: batch.batch_seq, index });
    added += 1;
  }
  return {
    fragment: { batchId: batch.batch_id, batchSeq: batch.batch_seq, ...builder.finishFragment() },
    whole: added === records.length,
  };
}
