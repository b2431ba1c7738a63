import { compareCodeUnits } from '../domain/compareCodeUnits.js';

/**
 * How a store-day's partition is split into key ranges listed side by side (see
 * `TradeRecordIndex.listDay`). A push notes a few of its batch's row keys on the batch's row; the
 * reconciliation splits the rest of the day at those samples, so that each range holds about the
 * same number of rows, whatever ids a partner chooses. The samples only balance the ranges: the
 * ranges cover every key above the first page, once, whichever keys they are split at.
 */

/**
 * Row keys noted per batch: enough to balance a few ranges on a day of a few batches.
 * @internal read by its own test instead of restating it.
 */
export const keySamplesPerBatch = 8;

/**
 * Most ranges of one day listed at once. Each range keeps a request and a page (about 0.5 MB) under
 * way, all of them read one table partition, and the day's report fragments download four at a
 * time beside them. Measured on a 20,000-transaction day (bench/ROUNDS.md, round 9): two ranges
 * took its reconciliation from 1.00 to 0.75 of a sequential listing, three and four ranges did no
 * better on the emulator, and four raised the reconciliation's peak memory by about 30 MB.
 * @internal read by the tests instead of restating it.
 */
export const maxDayListingRanges = 2;

/** Rows per page of a table query: a range of fewer rows than this gains nothing from a split. */
const rowsPerPage = 1000;

/** Separates the samples in the property that holds them: `|` never survives key encoding. */
const sampleSeparator = '|';

/**
 * Up to {@link keySamplesPerBatch} of a batch's row keys, spread over its order (a batch sent in id
 * order gives its quantiles), as the property value of the batch's row.
 */
export function keySamplesOf(rowKeys: readonly string[]): string {
  const count = Math.min(keySamplesPerBatch, rowKeys.length);
  const samples: string[] = [];
  for (let i = 0; i < count; i++) {
    const key = rowKeys[Math.floor((i * rowKeys.length) / count)];
    if (key !== undefined) samples.push(key);
  }
  return samples.join(sampleSeparator);
}

export interface BatchKeySamples {
  /** The batch row's sample property, as {@link keySamplesOf} wrote it. */
  readonly keySamples: string;
  readonly recordCount: number;
}

/**
 * The keys to split the rest of a day at (the keys above `after`), in increasing order: none when
 * the samples show no more than a page left. Each sample stands for its batch's records divided
 * among its samples; a split falls where the running count passes the next equal share.
 *
 * Keys are compared as JavaScript strings, which is storage's order for them: encoded keys are
 * ASCII.
 */
export function chooseSplitKeys(after: string, batches: readonly BatchKeySamples[]): string[] {
  const weighted: { key: string; weight: number }[] = [];
  let remaining = 0;
  for (const batch of batches) {
    if (batch.keySamples === '') continue;
    const keys = batch.keySamples.split(sampleSeparator);
    const weight = batch.recordCount / keys.length;
    for (const key of keys) {
      if (key <= after) continue;
      weighted.push({ key, weight });
      remaining += weight;
    }
  }
  const ranges = Math.min(maxDayListingRanges, Math.ceil(remaining / rowsPerPage));
  if (ranges < 2) return [];
  weighted.sort((a, b) => compareCodeUnits(a.key, b.key));
  const splits: string[] = [];
  let below = 0;
  for (const { key, weight } of weighted) {
    if (below >= (remaining * (splits.length + 1)) / ranges && key > (splits.at(-1) ?? after)) {
      splits.push(key);
      if (splits.length === ranges - 1) break;
    }
    below += weight;
  }
  return splits;
}
