import { odata, type TableClient, type TransactionAction } from '@azure/data-tables';
import { mapBounded } from '../services/mapBounded.js';
import { listEntityPages } from './listEntityPages.js';
import { isConflict, isNotFound, isPreconditionFailed } from './storageErrors.js';
import { encodeKeyPart } from './tableKey.js';
import { actionSize, transactionChunks } from './transactionChunks.js';
import { writeIfCurrent } from './writeIfCurrent.js';

export type RateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

const windowMs = 60_000;

/**
 * How many windows before the current one {@link TableRateLimiter.prune} keeps: instances' clocks
 * may differ by a little, and a window's row must outlive every instance still counting in it.
 */
const windowsKept = 5;

/**
 * Delete transactions a prune has in flight at once. Each deletes up to 100 rows of one partition
 * (a partner's), so 4 keep up to 400 deletes under way and a full page of 1,000 rows goes in three
 * rounds. A partner with more than 100 rows to delete has several of them side by side on the
 * partition its calls write to: storage throttles a partition pressed too hard, and those calls
 * would pay for it, so the number stays small.
 */
const pruneTransactions = 4;

/**
 * How long one prune takes new pages of rows (up to 1,000 each): well inside host.json's 5-minute
 * `functionTimeout`, whose expiry restarts the worker process with every request it serves. A
 * table that grew before pruning existed is cleared over several runs.
 */
const pruneBudgetMs = 120_000;

/** What one prune did. */
export interface PruneOutcome {
  readonly removed: number;
  /** It stopped at its time budget with rows left: the next run goes on. */
  readonly stoppedAtBudget: boolean;
}

/** What this instance last wrote for a partner: the window's row, its count and its ETag. */
interface KnownWindow {
  readonly windowStart: number;
  readonly count: number;
  readonly etag: string;
}

/**
 * A fixed one-minute window per partner, counted in Table Storage so every instance of the
 * service shares it. The instance remembers the row it last wrote for each partner, so the usual
 * call is one write guarded by that ETag (or the create of a new window's row): one round trip.
 * When another instance wrote in between, the ETag no longer matches and the call falls back to
 * read → decide → write. Counts only grow within a window, so a remembered count at the limit
 * refuses without a request.
 */
export class TableRateLimiter {
  private readonly known = new Map<string, KnownWindow>();

  constructor(private readonly table: TableClient) {}

  async take(partnerId: string, limitPerMinute: number, now: Date): Promise<RateDecision> {
    const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
    const refusal: RateDecision = {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now.getTime()) / 1000)),
    };
    if (limitPerMinute < 1) return refusal;
    const partitionKey = encodeKeyPart(partnerId);
    const rowKey = String(windowStart);
    const known = this.known.get(partnerId);
    if (known?.windowStart === windowStart) {
      if (known.count >= limitPerMinute) return refusal;
      const count = known.count + 1;
      try {
        const written = await this.table.updateEntity({ partitionKey, rowKey, count }, 'Replace', { etag: known.etag });
        this.remember(partnerId, windowStart, count, written.etag);
        return { allowed: true };
      } catch (error) {
        if (!isPreconditionFailed(error) && !isNotFound(error)) throw error;
      }
    } else if (known === undefined || known.windowStart < windowStart) {
      try {
        const written = await this.table.createEntity({ partitionKey, rowKey, count: 1 });
        this.remember(partnerId, windowStart, 1, written.etag);
        return { allowed: true };
      } catch (error) {
        if (!isConflict(error)) throw error;
      }
    }
    // Another instance wrote this window's row: read it and decide from what it holds.
    let written: { count: number } | undefined;
    const allowed = await writeIfCurrent<{ count: number }>(
      this.table,
      partitionKey,
      rowKey,
      (current) => {
        const count = current?.count ?? 0;
        written = count >= limitPerMinute ? undefined : { count: count + 1 };
        return written;
      },
      (etag) => {
        if (written) this.remember(partnerId, windowStart, written.count, etag);
      },
    );
    return allowed ? { allowed: true } : refusal;
  }

  /**
   * Deletes the rows of windows that started before the {@link windowsKept} windows preceding the
   * one of `now`, for every partner, and says how many. Every window a partner calls in leaves a row, so without this
   * the table would grow by a row per partner per busy minute for ever. Row keys are window starts
   * in milliseconds, all 13 digits until the year 2286, so their text order is their time order.
   * Each page of rows is deleted in entity group transactions (one partition, up to 100 rows each;
   * a page can span partners), {@link pruneTransactions} at a time. No page is started after
   * `budgetMs`.
   */
  async prune(now: Date, budgetMs = pruneBudgetMs): Promise<PruneOutcome> {
    const deadline = performance.now() + budgetMs;
    const oldestKept = String((Math.floor(now.getTime() / windowMs) - windowsKept) * windowMs);
    const query = { filter: odata`RowKey lt ${oldestKept}`, select: ['PartitionKey', 'RowKey'] };
    let removed = 0;
    for await (const rows of listEntityPages(this.table, query)) {
      const partitions = new Map<string, TransactionAction[]>();
      for (const row of rows) {
        const partitionKey = String(row.PartitionKey);
        let actions = partitions.get(partitionKey);
        if (actions === undefined) partitions.set(partitionKey, (actions = []));
        actions.push(['delete', { partitionKey, rowKey: String(row.RowKey) }]);
      }
      const transactions = [...partitions.values()].flatMap((actions) => transactionChunks(actions, actionSize));
      const deleted = await mapBounded(transactions, pruneTransactions, (actions) => this.deleteTogether(actions));
      removed += deleted.reduce((sum, n) => sum + n, 0);
      if (performance.now() >= deadline) return { removed, stoppedAtBudget: true };
    }
    return { removed, stoppedAtBudget: false };
  }

  /**
   * Deletes the rows of one transaction (one partition) and says how many this call removed.
   * Storage applies none of a transaction that names a row already gone (404): another prune took
   * it after this one listed it. The rows are then deleted one after another, a 404 meaning gone
   * already. So `removed` never counts a row another prune took. It falls short only when the
   * client's pipeline retried a request storage had applied but whose answer was lost: the retry
   * finds the rows gone and counts none of them (for a transaction, up to 100).
   *
   * Sent with the SDK's `submitTransaction`, not sendTableTransaction.ts: that writes creates and
   * updates, whose entities cost a push CPU to pass through the SDK; a delete carries none.
   */
  private async deleteTogether(actions: TransactionAction[]): Promise<number> {
    try {
      await this.table.submitTransaction(actions);
      return actions.length;
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    let removed = 0;
    for (const [, row] of actions) if (await this.deleteRow(row.partitionKey, row.rowKey)) removed += 1;
    return removed;
  }

  /** Deletes one row; false when it was already gone. */
  private async deleteRow(partitionKey: string, rowKey: string): Promise<boolean> {
    try {
      await this.table.deleteEntity(partitionKey, rowKey);
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  private remember(partnerId: string, windowStart: number, count: number, etag: string | undefined): void {
    if (etag === undefined) this.known.delete(partnerId);
    else this.known.set(partnerId, { windowStart, count, etag });
  }
}
