import { randomUUID } from 'node:crypto';
import type { TradeRecord } from './contractTypes.js';
import { contentBatchId } from './contentBatchId.js';

/**
 * Splits a day's records into /trade-records bodies of at most `maxRecords` records and
 * `maxBytes` bytes each, numbered by batch_seq from `firstSeq` (default 1), each with a batch_id
 * derived from its content and `batchIdSeed` (see `contentBatchId`): the same records and limits
 * give the same bodies under the same batch_ids.
 */
export function splitIntoBatches(
  records: readonly TradeRecord[],
  maxRecords: number,
  maxBytes: number,
  storeId: string,
  businessDate: string,
  firstSeq = 1,
  batchIdSeed = '',
): { batch_id: string; store_id: string; business_date: string; batch_seq: number; trade_records: TradeRecord[] }[] {
  // The envelope around the records, with room for the largest batch_seq.
  const envelope = Buffer.byteLength(
    JSON.stringify({ batch_id: randomUUID(), store_id: storeId, business_date: businessDate, batch_seq: 1e9, trade_records: [] }),
  );
  const batches: TradeRecord[][] = [];
  let current: TradeRecord[] = [];
  let bytes = envelope;
  for (const record of records) {
    const size = Buffer.byteLength(JSON.stringify(record)) + 1;
    if (envelope + size > maxBytes) throw new Error(`Record ${record.trade_record_id} alone is larger than ${maxBytes} bytes.`);
    if (current.length >= maxRecords || bytes + size > maxBytes) {
      batches.push(current);
      current = [];
      bytes = envelope;
    }
    current.push(record);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches.map((trade_records, index) => {
    const body = { store_id: storeId, business_date: businessDate, batch_seq: firstSeq + index, trade_records };
    return { batch_id: contentBatchId('trade-records', body, batchIdSeed), ...body };
  });
}
