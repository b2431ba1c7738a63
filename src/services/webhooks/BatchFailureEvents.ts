import { eventIdFor } from '../../events/eventIdFor.js';
import { invocationTelemetry } from '../../observability/invocationTelemetry.js';
import type { Telemetry } from '../../observability/Telemetry.js';
import type { EventPublisher, PublishedEvent } from './EventPublisher.js';

/** A batch that ended in the failed state, as the batch ledger's failure path reports it. */
export interface FailedBatch {
  readonly partnerId: string;
  readonly batchId: string;
  /** The push endpoint's path below /pos/v1, e.g. `trade-records`. */
  readonly endpoint: string;
  /** The stable error code of the failure (the catalogue's), never a storage message. */
  readonly code: string;
  readonly message: string;
  readonly failedAt: Date;
}

/** `data` of a batch.failed event (schemas/events.schema.json, batchFailedData). */
interface BatchFailedData {
  readonly batch_id: string;
  readonly status: 'FAILED';
  readonly error: { readonly code: string; readonly message: string };
  readonly failed_at: string;
}

/** The batch.failed event of a failed batch. Its id is the batch's, the same however often it is told. */
export function batchFailedEvent(batch: FailedBatch): PublishedEvent<BatchFailedData> {
  return {
    id: eventIdFor([batch.partnerId, 'batch.failed', batch.batchId]),
    type: 'batch.failed',
    source: `/pos/v1/${batch.endpoint}`,
    subject: batch.batchId,
    time: batch.failedAt,
    data: {
      batch_id: batch.batchId,
      status: 'FAILED',
      error: { code: batch.code, message: batch.message },
      failed_at: batch.failedAt.toISOString(),
    },
  };
}

/**
 * What the batch ledger's failure path calls once a batch has ended FAILED: HQ gets a figure to
 * alert on and the partner a `batch.failed` event. The event id is the batch's, so the ledger may
 * call this again after a crash without the partner seeing two failures.
 */
export class BatchFailureEvents {
  constructor(private readonly publisher: Pick<EventPublisher, 'publish'>) {}

  /** `telemetry`: by default the invocation's that found the failure (a push, or the sweep). */
  async batchFailed(batch: FailedBatch, telemetry: Telemetry = invocationTelemetry()): Promise<void> {
    telemetry.metric('batch_failed', 1, { partner: batch.partnerId, batch_id: batch.batchId, code: batch.code });
    await this.publisher.publish(batch.partnerId, batchFailedEvent(batch));
  }
}
