import { describe, expect, it } from 'vitest';
import { storeDayOverLimit, type CountedBatch } from '../../../src/domain/validation/storeDayOverLimit.js';

const limits = { maxTransactions: 1_000, maxBatches: 4 };

function stored(batchId: string, recordCount: number, failed = false): CountedBatch {
  return { batchId, recordCount, ...(failed ? { failed: true } : {}) };
}

describe('storeDayOverLimit', () => {
  it('lets a batch take the day up to the transaction limit, and not one past it', () => {
    const day = [stored('a', 500), stored('b', 400)];
    expect(storeDayOverLimit({ batchId: 'c', recordCount: 100 }, day, limits)).toBeUndefined();
    const over = storeDayOverLimit({ batchId: 'c', recordCount: 101 }, day, limits);
    expect(over).toMatchObject({ code: 'STORE_DAY_TOO_LARGE', status: 400 });
    expect(over?.message).toContain('already hold 900 transactions');
  });

  it("does not count a failed batch's transactions, whose rows were removed", () => {
    const day = [stored('a', 500), stored('b', 500, true)];
    expect(storeDayOverLimit({ batchId: 'c', recordCount: 500 }, day, limits)).toBeUndefined();
  });

  it('counts the batch once when an earlier try of it left its row', () => {
    const day = [stored('a', 500), stored('c', 500)];
    expect(storeDayOverLimit({ batchId: 'c', recordCount: 500 }, day, limits)).toBeUndefined();
  });

  it('refuses a batch once the day holds the most batches, failed ones included', () => {
    const day = [stored('a', 1), stored('b', 1), stored('c', 1, true), stored('d', 1)];
    const over = storeDayOverLimit({ batchId: 'e', recordCount: 1 }, day, limits);
    expect(over?.code).toBe('STORE_DAY_TOO_LARGE');
    expect(over?.message).toContain('already hold 4 batches');
    // A try of a batch the day already holds is not a batch more.
    expect(storeDayOverLimit({ batchId: 'd', recordCount: 1 }, day, limits)).toBeUndefined();
  });
});
