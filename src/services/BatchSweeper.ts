import { ApiError } from '../errors/ApiError.js';
import { StorageError } from '../errors/StorageError.js';
import type { BatchKind } from '../domain/model/BatchKind.js';
import type { PendingBatch } from '../storage/PendingBatchIndex.js';
import type { Clock } from './ports/Clock.js';
import type { Ledger } from './ports/Ledger.js';
import type { PendingBatches } from './ports/PendingBatches.js';
import type { BatchIngestion } from './push/BatchIngestion.js';
import type { BatchProcessor } from './push/BatchProcessor.js';
import type { ReportFragmentStager } from './reports/ReportFragmentStager.js';
import { drainWithinBudget } from './drainWithinBudget.js';

export type SweepOutcome = 'committed' | 'completed' | 'failed' | 'abandoned' | 'absent';

/**
 * How long one sweep takes new rows: well inside host.json's 5-minute `functionTimeout`, whose
 * expiry restarts the worker process with every request it serves. Rows not reached stay for the
 * next sweep, which starts with the oldest.
 * @internal read by its test instead of restating it.
 */
export const sweepBudgetMs = 180_000;

/**
 * Rows one sweep works on at once: each may convert a raw batch (up to 5 MB) into its fragment.
 * @internal read by its test instead of restating it.
 */
export const sweepConcurrency = 4;

/** Failed rows one sweep's summary names, for its log; the others are only counted. */
const namedRowFailures = 10;

/** A row that failed this time and is left for the next sweep. */
export interface SweepRowFailure {
  readonly partnerId: string;
  readonly batchId: string;
  readonly error: unknown;
}

/** What one sweep did, for its log line. */
export interface SweepSummary {
  readonly examined: number;
  /** Committed before the sweep came, or rows a lost race left: only their index row was left. */
  readonly alreadyFinished: number;
  readonly completed: number;
  readonly abandoned: number;
  /** Ended FAILED: storage refuses them for good, so they are never tried again. */
  readonly failed: number;
  /** Still too recent to judge, or failed this time: the next sweep looks again. */
  readonly leftPending: number;
  /**
   * The first {@link namedRowFailures} rows that failed this time: a batch that fails every sweep
   * stays pending, and its id in the log is how HQ finds it.
   */
  readonly rowFailures: readonly SweepRowFailure[];
  /** Committed trade-record batches converted into their report fragments. */
  readonly fragmentsStaged: number;
  /** The sweep reached its time budget with stale rows it did not take: the next sweep does. */
  readonly stoppedAtBudget: boolean;
  /**
   * Storage was unavailable or slower than its deadline while the pending index was listed: the
   * sweep ended there, and the rows it did not reach stay for the next sweep.
   */
  readonly listingUnavailable?: StorageError;
}

/**
 * Finishes pushes that were cut off between their first write and their commit while nobody
 * retried: the stored blob is applied and the batch committed. A PENDING entry whose body was
 * never stored was never acknowledged; it is dropped. A batch storage refuses ends FAILED, which
 * is final: the sweep removes it from the pending index and never tries it again. Run by a timer: it
 * looks only at pushes older than `staleAfterSeconds`, found through the pending index without
 * scanning the ledger.
 */
export class BatchSweeper {
  constructor(
    private readonly ledger: Ledger,
    private readonly pendingIndex: PendingBatches,
    private readonly ingestion: Pick<BatchIngestion, 'completeFromBlob' | 'dropIfAbandoned' | 'announceFailure'>,
    private readonly processors: Readonly<Record<BatchKind, BatchProcessor<{ batch_id: string }>>>,
    private readonly staleAfterSeconds: number,
    private readonly clock: Clock,
    /** Stages a committed trade-record batch's report fragment (never throws); absent, none is staged. */
    private readonly fragments?: Pick<ReportFragmentStager, 'stage'>,
    /** A monotonic clock in milliseconds, for the time budget. */
    private readonly elapsedMs: () => number = () => performance.now(),
  ) {}

  /**
   * Sweeps the pushes left pending for longer than the stale age, oldest first, {@link sweepConcurrency}
   * at a time, and takes no new row once {@link sweepBudgetMs} have passed.
   */
  async sweepStale(): Promise<SweepSummary> {
    const cutoff = new Date(this.clock().getTime() - this.staleAfterSeconds * 1000);
    const deadline = this.elapsedMs() + sweepBudgetMs;
    const counts = { examined: 0, alreadyFinished: 0, completed: 0, abandoned: 0, failed: 0, leftPending: 0, fragmentsStaged: 0 };
    const rowFailures: SweepRowFailure[] = [];
    const rows = this.pendingIndex.listOlderThan(cutoff)[Symbol.asyncIterator]();
    const plan = { lanes: sweepConcurrency, deadline, now: this.elapsedMs };
    const { stoppedAtBudget, failure } = await drainWithinBudget(rows, plan, async (row) => {
      counts.examined += 1;
      try {
        const outcome = await this.sweepRow(row, () => {
          counts.fragmentsStaged += 1;
        });
        if (outcome === 'committed' || outcome === 'absent') counts.alreadyFinished += 1;
        else if (outcome === 'completed') counts.completed += 1;
        else if (outcome === 'abandoned') counts.abandoned += 1;
        else if (outcome === 'failed') counts.failed += 1;
        else counts.leftPending += 1;
      } catch (error) {
        // One batch that storage refused now must not stop the others; its row stays for next time.
        counts.leftPending += 1;
        if (rowFailures.length < namedRowFailures) rowFailures.push({ partnerId: row.partnerId, batchId: row.batchId, error });
      }
    });
    const summary = { ...counts, rowFailures, stoppedAtBudget };
    // A listing that fails stops the sweep, once the rows under way are done.
    if (!failure) return summary;
    // Storage busy or slow is what the next sweep, five minutes on, is for: reported as the HTTP
    // side reports it (a warning), so a loaded hour does not fail the timer run as an error.
    // Refused credentials (a role missing) wait for an operator, not for time: the run fails.
    const reason: unknown = failure.reason;
    const busy = reason instanceof StorageError && reason.kind === 'unavailable' && reason.statusCode !== 401 && reason.statusCode !== 403;
    if (busy) return { ...summary, listingUnavailable: reason };
    throw reason;
  }

  /**
   * Sweeps one batch now (tests use it to finish a cut-off push at once). A batch still pending
   * and younger than the sweep's stale age throws: nothing can yet tell it from a push under way.
   */
  async sweep(target: { partnerId: string; batchId: string }): Promise<SweepOutcome> {
    const entry = await this.ledger.get(target.partnerId, target.batchId);
    if (!entry) return 'absent';
    const outcome = await this.sweepRow({ ...target, createdAt: entry.createdAt }, () => undefined);
    if (outcome === 'pending') throw new Error('The batch is still pending and too recent to be judged abandoned.');
    return outcome;
  }

  private async sweepRow(pending: PendingBatch, staged: () => void): Promise<SweepOutcome | 'pending'> {
    const { partnerId, batchId } = pending;
    const entry = await this.ledger.get(partnerId, batchId);
    // A row left by a request that lost the race to create the entry, or by a finished batch whose
    // row could not be removed at once: nothing to do but remove it.
    if (entry?.createdAt !== pending.createdAt) {
      await this.pendingIndex.remove(pending);
      return 'absent';
    }
    if (entry.state === 'COMMITTED') {
      await this.stageFragment(pending, entry.kind, staged);
      await this.pendingIndex.remove(pending);
      return 'committed';
    }
    if (entry.state === 'FAILED') {
      // A failed batch counts nowhere: it gets no fragment. Its row is left only when its failure
      // may not have been told: it is told (again) before the row goes.
      await this.ingestion.announceFailure(partnerId, batchId, entry.kind, new Date(entry.failedAt));
      await this.pendingIndex.remove(pending);
      return 'failed';
    }
    const processor = this.processors[entry.kind];
    try {
      if (await this.ingestion.completeFromBlob(partnerId, batchId, entry, processor)) {
        await this.stageFragment(pending, entry.kind, staged);
        await this.pendingIndex.remove(pending);
        return 'completed';
      }
    } catch (error) {
      // Storage refused the batch for good; the ledger now says FAILED and the next sweep removes its row.
      if (error instanceof ApiError && error.code === 'BATCH_FAILED') return 'failed';
      throw error;
    }
    if (await this.ingestion.dropIfAbandoned(partnerId, batchId, entry)) return 'abandoned';
    return 'pending';
  }

  /** A committed trade-record batch's report fragment; a failure only means its day converts the batch itself. */
  private async stageFragment(pending: PendingBatch, kind: BatchKind, staged: () => void): Promise<void> {
    if (kind !== 'tradeRecords' || !this.fragments) return;
    const outcome = await this.fragments.stage(pending.partnerId, pending.batchId);
    if (outcome === 'staged') staged();
  }
}
