import type { TradeRecordBatch } from '../../domain/model/payloads.js';
import { parseJsonBody } from '../../bodyParsing/parseJsonBody.js';
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
    const parsed = stored ? parseJsonBody(stored) : undefined;
    if (!parsed?.ok) return;
    const body = parsed.value as Partial<TradeRecordBatch>;
    if (Array.isArray(body.trade_records)) use(body as TradeRecordBatch, batchId);
  });
}
