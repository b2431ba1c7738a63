import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TradeRecord, TradeRecordBatch } from '../../src/domain/model/payloads.js';
import { loadParquetWriter } from '../../src/reports/loadParquetWriter.js';
import { storeDayDatasets } from '../../src/reports/reportDatasets.js';
import { storeDayBlobName } from '../../src/reports/reportBlobName.js';
import { StoreDayReportBuilder, type StoreDayFiles } from '../../src/reports/StoreDayReportBuilder.js';

/** Builds a store-day's files from the latest version of each transaction, found in the batches that carried it. */
export async function buildStoreDay(options: {
  partnerId: string;
  storeId: string;
  businessDate: string;
  mapping: Readonly<Record<string, string>>;
  batches: readonly TradeRecordBatch[];
  finalRecords: readonly TradeRecord[];
  rowGroupRows?: number;
}): Promise<StoreDayFiles> {
  const builder = new StoreDayReportBuilder(await loadParquetWriter(), {
    partnerId: options.partnerId,
    storeId: options.storeId,
    businessDate: options.businessDate,
    mapping: new Map(Object.entries(options.mapping)),
    ...(options.rowGroupRows === undefined ? {} : { rowGroupRows: options.rowGroupRows }),
  });
  for (const record of options.finalRecords) {
    const batch = options.batches.find((b) => b.trade_records.includes(record));
    if (!batch) throw new Error(`no batch carries the final version of ${record.trade_record_id}`);
    builder.add(record, { batch_id: batch.batch_id, batch_seq: batch.batch_seq, index: batch.trade_records.indexOf(record) });
  }
  return builder.finish();
}

/** Writes a store-day's files below `root` at their blob names, as a download of the container would. */
export function writeStoreDay(root: string, partnerId: string, storeId: string, businessDate: string, files: StoreDayFiles): void {
  for (const dataset of storeDayDatasets) {
    const bytes = files.files[dataset];
    if (!bytes) continue;
    const file = path.join(root, storeDayBlobName(dataset, partnerId, businessDate, storeId));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, bytes);
  }
}
