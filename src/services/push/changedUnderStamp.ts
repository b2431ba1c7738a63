import { isDeepStrictEqual } from 'node:util';
import type { TradeRecord } from '../../domain/model/payloads.js';
import type { RawBatches } from '../ports/RawBatches.js';
import { forEachStoredTradeBatch } from './forEachStoredTradeBatch.js';

/**
 * The transactions of a push that came under the stamp of a stored copy with the same figures but
 * say something else: another product, an employee, an order type. The index keeps figures only,
 * so each such stored copy is read from the raw batch that delivered it (`keptFrom`: id → that
 * batch_id) and compared whole, but for the stamp (the same instant may carry another offset) and
 * whatever the order of its fields. Nothing is read unless a copy tied, which a retry of the same
 * batch never does. A stored batch that cannot be read as a batch compares as the same.
 */
export async function changedUnderStamp(
  rawBatches: RawBatches,
  partnerId: string,
  records: readonly TradeRecord[],
  keptFrom: ReadonlyMap<string, string> | undefined,
): Promise<Set<string>> {
  const changed = new Set<string>();
  if (keptFrom === undefined || keptFrom.size === 0) return changed;
  const sent = new Map(records.map((record) => [record.trade_record_id, record]));
  await forEachStoredTradeBatch(rawBatches, partnerId, [...new Set(keptFrom.values())], (stored, batchId) => {
    for (const storedRecord of stored.trade_records) {
      const id = storedRecord.trade_record_id;
      const record = sent.get(id);
      if (record === undefined || keptFrom.get(id) !== batchId) continue;
      if (!isDeepStrictEqual(withoutStamp(storedRecord), withoutStamp(record))) changed.add(id);
    }
  });
  return changed;
}

function withoutStamp(record: TradeRecord): Omit<TradeRecord, 'version' | 'last_modified_at'> {
  const { version: _version, last_modified_at: _stamp, ...content } = record;
  return content;
}
