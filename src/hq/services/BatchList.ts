import { batchKindName } from '../../domain/model/BatchKind.js';
import { ApiError } from '../../errors/ApiError.js';
import type { UncommittedBatches } from '../../services/ports/UncommittedBatches.js';
import type { LedgerPosition } from '../../storage/BatchLedgerListing.js';

export interface BatchBody {
  readonly partner_id: string;
  readonly batch_id: string;
  readonly kind: string;
  readonly state: 'PENDING' | 'FAILED';
  readonly created_at: string;
  readonly failed_at: string | null;
  readonly failure: string | null;
}

/** Batches that are not committed: pending (the sweep finishes or drops them) or failed (final). */
export class BatchList {
  constructor(private readonly ledger: UncommittedBatches) {}

  async page(
    state: 'pending' | 'failed',
    options: { partnerId?: string | undefined; limit: number; after?: LedgerPosition | undefined },
  ): Promise<{ items: BatchBody[]; next: LedgerPosition | undefined }> {
    if (options.after && !this.ledger.isPosition(options.after)) {
      throw new ApiError('INVALID_QUERY', undefined, [
        { path: '/continuation', message: 'must be the continuation of the previous page, unchanged' },
      ]);
    }
    const page = await this.ledger.page(state === 'pending' ? 'PENDING' : 'FAILED', {
      partnerId: options.partnerId,
      limit: options.limit,
      after: options.after,
    });
    return {
      items: page.items.map((b) => ({
        partner_id: b.partnerId,
        batch_id: b.batchId,
        kind: batchKindName[b.kind],
        state: b.state,
        created_at: b.createdAt,
        failed_at: b.failedAt ?? null,
        failure: b.failure ?? null,
      })),
      next: page.next,
    };
  }
}
