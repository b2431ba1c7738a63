import type { ControlTotals } from '../../domain/reconciliation/ControlTotals.js';
import type { RowReadAhead } from '../../storage/RowReadAhead.js';
import type { PendingRun, ReconciliationFilter, ReconciliationRecord, ResultToSave } from '../../storage/ReconciliationRepository.js';

/** The reconciliation state of each store-day: RECEIVED when a close arrives, then the result. */
export interface Reconciliations {
  /** With `readAhead` (a read of the row started earlier), the row it read is the answer. */
  get(partnerId: string, storeId: string, businessDate: string, readAhead?: RowReadAhead): Promise<ReconciliationRecord | undefined>;
  /** Sets the day to RECEIVED for this close, unless a close received later is recorded; the close's run is the day's pending run. */
  markReceived(
    partnerId: string,
    storeId: string,
    businessDate: string,
    close: { batchId: string; receivedAt: string; expected: ControlTotals; run?: PendingRun },
    readAhead?: RowReadAhead,
  ): Promise<void>;
  /** Starts reading a store-day's row for a `markReceived` or `saveResult` soon after (stores where a read is a round trip). */
  readAhead?(partnerId: string, storeId: string, businessDate: string): RowReadAhead;
  /**
   * Notes a run for the day unless one is pending (and not overdue by `lostAfterMs`); returns the
   * close the run is for, or undefined when nothing needs scheduling. A run whose id is the one
   * pending is returned again: its caller noted it before and may not have sent its message.
   */
  notePendingRun(
    partnerId: string,
    storeId: string,
    businessDate: string,
    run: PendingRun,
    lost: { readonly now: Date; readonly lostAfterMs: number },
  ): Promise<{ closeBatchId: string } | undefined>;
  /**
   * A run starts, before it lists the day: resolves with its number, after every run of the day
   * started before it (0 when no close is recorded). A run named `runId` that is the day's pending
   * run is no longer pending. `readAhead`: the row as read earlier, a first guess checked by the write.
   */
  startRun(partnerId: string, storeId: string, businessDate: string, runId: string | undefined, readAhead?: RowReadAhead): Promise<number>;
  /**
   * Records a result for the close it was computed from, noting whether it changed the day's
   * status or figures; undefined when that close was superseded, when a run numbered after
   * `result.runNumber` has stored its result, or when a run of the same `runId` has (a copy of one
   * message, run side by side: a run id has one result). `readAhead`: the row as read earlier, a
   * first guess checked by the write (see {@link RowReadAhead}).
   */
  saveResult(
    partnerId: string,
    storeId: string,
    businessDate: string,
    closeBatchId: string,
    result: ResultToSave,
    readAhead?: RowReadAhead,
  ): Promise<ReconciliationRecord | undefined>;
  list(filter: ReconciliationFilter): AsyncIterable<ReconciliationRecord>;
  /** One store's days from `from` to `to`, both included, in date order. */
  listRange(partnerId: string, storeId: string, from: string, to: string): Promise<ReconciliationRecord[]>;
}
