import type { TradeRecordBatch } from '../../domain/model/payloads.js';
import { parseStoredBody } from '../../bodyParsing/parseStoredBody.js';
import type { RawBatches } from '../ports/RawBatches.js';
import { mapBounded } from '../mapBounded.js';

/** Raw batches read at once (each up to the 5 MB body limit, parsed). */
const readsAtOnce = 4;

/**
 * Reads the stored trade-record batches named, a few at a time, and hands each parsed body to
 * `use` with the id it was read by: a day of hundreds of batches is read in a fraction of the time, and none is held once
 * used. A batch that is not stored, or does not read as a batch of transactions, is passed over.
 */
export async function forEachStoredTradeBatch(
  rawBatches: RawBatches,
  partnerId: string,
  batchIds: readonly string[],
  use: (body: TradeRecordBatch, batchId: string) => void,
): Promise<void> {
  await mapBounded(batchIds, readsAtOnce, async (batchId) => {
    const stored = await rawBatches.get(partnerId, batchId);
    const body = (stored ? parseStoredBody(stored) : undefined) as Partial<TradeRecordBatch> | null | undefined;
    if (Array.isArray(body?.trade_records)) use(body as TradeRecordBatch, batchId);
  });
}
