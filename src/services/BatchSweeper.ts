import { ApiError } from '../errors/ApiError.js';
import type { BatchKind } from '../domain/model/BatchKind.js';
import type { BatchLedger } from '../storage/BatchLedger.js';
import type { BatchIngestion, BatchSweepMessage } from './push/BatchIngestion.js';
import type { BatchProcessor } from './push/BatchProcessor.js';

export type SweepOutcome = 'committed' | 'completed' | 'failed' | 'abandoned' | 'absent';

/**
 * Finishes pushes that were cut off between their first write and their commit while nobody
 * retried: the stored blob is applied and the batch committed. A PENDING entry whose body was
 * never stored was never acknowledged; it is dropped. A batch storage refuses ends FAILED, which
 * is final: the sweep reports it and never tries it again.
 */
export class BatchSweeper {
  constructor(
    private readonly ledger: BatchLedger,
    private readonly ingestion: BatchIngestion,
    private readonly processors: Readonly<Record<BatchKind, BatchProcessor<{ batch_id: string }>>>,
  ) {}

  async sweep(message: BatchSweepMessage): Promise<SweepOutcome> {
    const entry = await this.ledger.get(message.partnerId, message.batchId);
    if (!entry) return 'absent';
    if (entry.state === 'COMMITTED') return 'committed';
    if (entry.state === 'FAILED') return 'failed';
    const processor = this.processors[entry.kind];
    try {
      if (await this.ingestion.completeFromBlob(message.partnerId, message.batchId, entry, processor)) return 'completed';
    } catch (error) {
      if (error instanceof ApiError && error.code === 'BATCH_FAILED') return 'failed';
      throw error;
    }
    if (await this.ingestion.dropIfAbandoned(message.partnerId, message.batchId, entry)) return 'abandoned';
    // Still in flight: fail so the message comes back later.
    throw new Error('The batch is still pending and too recent to be judged abandoned.');
  }
}
