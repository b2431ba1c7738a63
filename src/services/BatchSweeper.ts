import type { BatchKind } from '../domain/model/BatchKind.js';
import type { Ledger } from './ports/Ledger.js';
import type { BatchIngestion, BatchSweepMessage } from './push/BatchIngestion.js';
import type { BatchProcessor } from './push/BatchProcessor.js';

export type SweepOutcome = 'committed' | 'completed' | 'abandoned' | 'absent';

/**
 * Finishes pushes that were cut off between their first write and their commit while nobody
 * retried: the stored blob is applied and the batch committed. A PENDING entry whose body was
 * never stored was never acknowledged; it is dropped.
 */
export class BatchSweeper {
  constructor(
    private readonly ledger: Ledger,
    private readonly ingestion: BatchIngestion,
    private readonly processors: Readonly<Record<BatchKind, BatchProcessor<{ batch_id: string }>>>,
  ) {}

  async sweep(message: BatchSweepMessage): Promise<SweepOutcome> {
    const entry = await this.ledger.get(message.partnerId, message.batchId);
    if (!entry) return 'absent';
    if (entry.state === 'COMMITTED') return 'committed';
    const processor = this.processors[entry.kind];
    if (await this.ingestion.completeFromBlob(message.partnerId, message.batchId, entry, processor)) return 'completed';
    if (await this.ingestion.dropIfAbandoned(message.partnerId, message.batchId, entry)) return 'abandoned';
    // Still in flight: fail so the message comes back later.
    throw new Error('The batch is still pending and too recent to be judged abandoned.');
  }
}
