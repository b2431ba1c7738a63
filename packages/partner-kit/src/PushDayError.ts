import type { BatchAcknowledgement } from './contractTypes.js';

/**
 * `PosClient.pushDay` stopped after its first batch left: the service refused a batch or the
 * close (`cause` is then the `PosRequestError`, e.g. 500 BATCH_FAILED), or gave no usable answer
 * within `maxAttempts` (`cause` is the network's error). The batches in `acknowledged` are
 * applied; the one it stopped at may be too (its answer lost on the way); the later ones and the
 * close were not sent. The same call again finishes the day: its batch_ids come from the batches'
 * content, so what was applied is answered ALREADY_RECEIVED and not applied twice.
 */
export class PushDayError extends Error {
  constructor(
    /** The answers to this call's batches that the service acknowledged, in batch_seq order. */
    readonly acknowledged: readonly BatchAcknowledgement[],
    /** How many batches this call split its records into. */
    readonly batchCount: number,
    /** How many of the call's records, from the first, those batches hold: `records.slice(acknowledgedRecords)` were not delivered. */
    readonly acknowledgedRecords: number,
    cause: unknown,
  ) {
    const where =
      acknowledged.length < batchCount
        ? `after ${acknowledged.length} of ${batchCount} batch(es) were acknowledged; the daily close was not sent`
        : `at the daily close, after all ${batchCount} batch(es) were acknowledged`;
    super(`pushDay stopped ${where}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'PushDayError';
  }
}
