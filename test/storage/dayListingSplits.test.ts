import { describe, expect, it } from 'vitest';
import { chooseSplitKeys, keySamplesOf, keySamplesPerBatch, maxDayListingRanges } from '../../src/storage/dayListingSplits.js';

const key = (n: number) => `T-${String(n).padStart(6, '0')}`;
/** A batch of `count` ids from `first` on, in id order, as a push notes it. */
const batchOf = (first: number, count: number) => ({
  keySamples: keySamplesOf(Array.from({ length: count }, (_, i) => key(first + i))),
  recordCount: count,
});

describe('keySamplesOf', () => {
  it("notes keys spread over the batch's order, the first one included", () => {
    const keys = Array.from({ length: 500 }, (_, i) => key(i));
    const samples = keySamplesOf(keys).split('|');
    expect(samples).toHaveLength(keySamplesPerBatch);
    expect(samples[0]).toBe(key(0));
    expect(samples.map((s) => Number(s.slice(2)))).toEqual([0, 62, 125, 187, 250, 312, 375, 437]);
  });

  it('notes every key of a small batch, and nothing for an empty one', () => {
    expect(keySamplesOf(['b', 'a'])).toBe('b|a');
    expect(keySamplesOf([])).toBe('');
  });
});

describe('chooseSplitKeys', () => {
  it('splits a large day into ranges of about equal rows above the first page', () => {
    // 40 batches of 500 in id order: a 20,000-row day whose first page ended at T-000999.
    const batches = Array.from({ length: 40 }, (_, b) => batchOf(b * 500, 500));
    const splits = chooseSplitKeys(key(999), batches);
    expect(splits).toHaveLength(maxDayListingRanges - 1);
    const bounds = [1000, ...splits.map((s) => Number(s.slice(2))), 20000];
    const sizes = bounds.slice(1).map((upper, i) => upper - bounds[i]!);
    for (const size of sizes) expect(Math.abs(size - 19000 / maxDayListingRanges)).toBeLessThanOrEqual(250);
  });

  it('balances ids in no order by their spread, not their position', () => {
    // Ids scattered over the whole key space in every batch, as random ids are.
    const scattered = (b: number) => {
      const keys = Array.from({ length: 500 }, (_, i) => key((i * 7919 + b * 104729) % 20000));
      return { keySamples: keySamplesOf(keys), recordCount: 500 };
    };
    const splits = chooseSplitKeys(
      '',
      Array.from({ length: 40 }, (_, b) => scattered(b)),
    );
    expect(splits).toHaveLength(maxDayListingRanges - 1);
    const points = splits.map((s) => Number(s.slice(2)));
    points.forEach((p, i) => {
      expect(Math.abs(p - ((i + 1) * 20000) / maxDayListingRanges)).toBeLessThan(2500);
    });
  });

  it('gives strictly increasing keys above the first page, even where batches noted the same keys', () => {
    // Every batch sends new versions of the same 300 records: their samples coincide.
    const batches = Array.from({ length: 20 }, () => batchOf(0, 300));
    const splits = chooseSplitKeys(key(10), batches);
    expect(splits.length).toBeGreaterThan(0);
    expect(splits[0]! > key(10)).toBe(true);
    for (let i = 1; i < splits.length; i++) expect(splits[i]! > splits[i - 1]!).toBe(true);
  });

  it('does not split what is left of a day within one page', () => {
    expect(chooseSplitKeys(key(999), [batchOf(0, 1500)])).toEqual([]);
    expect(chooseSplitKeys('', [batchOf(0, 1000)])).toEqual([]);
  });

  it('does not split a day whose batches noted no keys', () => {
    expect(chooseSplitKeys('', [{ keySamples: '', recordCount: 20000 }])).toEqual([]);
  });
});
