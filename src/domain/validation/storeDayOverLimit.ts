import { ApiError } from '../../errors/ApiError.js';

/** What one store and business date may receive (`MAX_TRANSACTIONS_PER_STORE_DAY`, `MAX_BATCHES_PER_STORE_DAY`). */
export interface StoreDayLimits {
  /** Transactions, summed over the day's batches that did not fail: a transaction sent again counts again. */
  readonly maxTransactions: number;
  /** Batches, failed ones included: each keeps a row that every push and every reconciliation of the day lists. */
  readonly maxBatches: number;
}

/** What the count needs of each batch the day holds. */
export interface CountedBatch {
  readonly batchId: string;
  readonly recordCount: number;
  readonly failed?: boolean;
}

/**
 * 400 STORE_DAY_TOO_LARGE when a batch would take its store-day past a limit; undefined when it fits.
 * `dayBatches` is the day's batch list read with at most `maxBatches` + 1 rows (enough to tell that
 * the day is full); the batch's own row, present when an earlier try of it got that far, is not
 * counted twice.
 */
export function storeDayOverLimit(
  batch: { readonly batchId: string; readonly recordCount: number },
  dayBatches: readonly CountedBatch[],
  limits: StoreDayLimits,
): ApiError | undefined {
  const others = dayBatches.filter((other) => other.batchId !== batch.batchId);
  if (others.length >= limits.maxBatches) {
    return new ApiError(
      'STORE_DAY_TOO_LARGE',
      `This store and business date already hold ${limits.maxBatches} batches, the most accepted per store and business date. Ask HQ before sending more.`,
    );
  }
  const received = others.reduce((sum, other) => (other.failed === true ? sum : sum + other.recordCount), 0);
  if (received + batch.recordCount > limits.maxTransactions) {
    return new ApiError(
      'STORE_DAY_TOO_LARGE',
      `This store and business date already hold ${received} transactions; this batch's ${batch.recordCount} would pass the ${limits.maxTransactions} accepted per store and business date (a transaction sent again counts again). Ask HQ before sending more.`,
    );
  }
  return undefined;
}
