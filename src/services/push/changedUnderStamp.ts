import { isDeepStrictEqual } from 'node:util';
import type { TradeRecord, TradeRecordBatch } from '../../domain/model/payloads.js';
import { parseJsonBody } from '../../validation/parseJsonBody.js';
import type { RawBatches } from '../ports/RawBatches.js';
import { mapBounded } from '../mapBounded.js';

/** Earlier batches read at once (each up to the body limit, parsed). */
const batchReadsAtOnce = 4;

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
  const idsByBatch = new Map<string, string[]>();
  for (const [id, batchId] of keptFrom) idsByBatch.set(batchId, [...(idsByBatch.get(batchId) ?? []), id]);
  await mapBounded([...idsByBatch], batchReadsAtOnce, async ([batchId, ids]) => {
    const stored = await rawBatches.get(partnerId, batchId);
    const parsed = stored ? parseJsonBody(stored) : undefined;
    if (!parsed?.ok) return;
    const storedRecords = (parsed.value as Partial<TradeRecordBatch>).trade_records;
    if (!Array.isArray(storedRecords)) return;
    const wanted = new Set(ids);
    for (const storedRecord of storedRecords) {
      const id = storedRecord.trade_record_id;
      const record = sent.get(id);
      if (!wanted.has(id) || !record) continue;
      if (!isDeepStrictEqual(withoutStamp(storedRecord), withoutStamp(record))) changed.add(id);
    }
  });
  return changed;
}

function withoutStamp(record: TradeRecord): Omit<TradeRecord, 'version' | 'last_modified_at'> {
  const { version: _version, last_modified_at: _stamp, ...content } = record;
  return content;
}
