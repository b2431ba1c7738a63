/**
 * One sweep's bounds: committed trade-record batches waiting for their report fragments are taken
 * oldest first, a few at once, and no new one after the time budget; the next sweep takes the rest.
 */
import { describe, expect, it } from 'vitest';
import { BatchSweeper, sweepBudgetMs, sweepConcurrency } from '../../src/services/BatchSweeper.js';
import type { BatchProcessor } from '../../src/services/push/BatchProcessor.js';
import type { BatchKind } from '../../src/domain/model/BatchKind.js';
import { InMemoryLedger } from '../support/memory/InMemoryLedger.js';
import { InMemoryPendingBatches } from '../support/memory/InMemoryPendingBatches.js';

const partnerId = 'acme';
const now = new Date('2026-03-02T12:00:00.000Z');

/** `count` committed trade-record batches, each with its pending row, created a minute apart (newest first). */
async function committedBatches(count: number) {
  const ledger = new InMemoryLedger();
  const pending = new InMemoryPendingBatches();
  for (let i = count - 1; i >= 0; i--) {
    const createdAt = new Date(now.getTime() - (i + 10) * 60_000);
    const batchId = `batch-${String(i).padStart(3, '0')}`;
    const entry = await ledger.createPending(partnerId, batchId, 'tradeRecords', 'sha', createdAt);
    await ledger.commit(partnerId, batchId, entry!, { recordCount: 1, warnings: [] }, createdAt);
    await pending.add({ partnerId, batchId, createdAt: createdAt.toISOString() });
  }
  return { ledger, pending };
}

/** A sweeper whose fragment staging takes `stageMs` of a clock the test controls, and records its order. */
function sweeperOf(ledger: InMemoryLedger, pending: InMemoryPendingBatches, clock: { ms: number }, stageMs: number) {
  const staged: string[] = [];
  let inFlight = 0;
  let most = 0;
  const fragments = {
    stage: async (_partner: string, batchId: string) => {
      most = Math.max(most, ++inFlight);
      // A turn of the event loop, in which the other lanes (on in-memory ports) reach their staging.
      await new Promise((resolve) => setImmediate(resolve));
      clock.ms += stageMs;
      inFlight -= 1;
      staged.push(batchId);
      return 'staged' as const;
    },
  };
  // Committed batches never reach the ingestion or the processors.
  const unused = {
    completeFromBlob: () => Promise.reject(new Error('a committed batch is not completed again')),
    dropIfAbandoned: () => Promise.reject(new Error('a committed batch is not dropped')),
    announceFailure: () => Promise.reject(new Error('a committed batch did not fail')),
  };
  const processors = {} as Record<BatchKind, BatchProcessor<{ batch_id: string }>>;
  const sweeper = new BatchSweeper(
    ledger,
    pending,
    unused,
    processors,
    300,
    () => now,
    fragments,
    () => clock.ms,
  );
  return { sweeper, staged, most: () => most };
}

describe('one sweep', () => {
  it('stages the oldest batches first, a few at once, and leaves the rest once its time budget is spent', async () => {
    const { ledger, pending } = await committedBatches(40);
    const clock = { ms: 0 };
    // Each staging costs a tenth of the budget: the lanes take about ten rows, then stop.
    const { sweeper, staged, most } = sweeperOf(ledger, pending, clock, sweepBudgetMs / 10);

    const first = await sweeper.sweepStale();
    expect(first.stoppedAtBudget).toBe(true);
    expect(first.fragmentsStaged).toBe(staged.length);
    expect(staged.length).toBeGreaterThanOrEqual(10);
    expect(staged.length).toBeLessThan(10 + sweepConcurrency);
    expect(most()).toBe(sweepConcurrency);
    // The oldest batches (the highest numbers were created first).
    expect([...staged].sort()).toEqual(Array.from({ length: staged.length }, (_, i) => `batch-${String(39 - i).padStart(3, '0')}`).sort());

    // The next sweeps go on from there until every row is done, each row once.
    for (let sweeps = 0; sweeps < 10; sweeps++) {
      clock.ms = 0;
      const next = await sweeper.sweepStale();
      if (!next.stoppedAtBudget) break;
    }
    expect(staged).toHaveLength(40);
    expect(new Set(staged).size).toBe(40);
    const left: string[] = [];
    for await (const row of pending.listOlderThan(now)) left.push(row.batchId);
    expect(left).toEqual([]);
  });

  it('takes every stale row when they fit in the budget', async () => {
    const { ledger, pending } = await committedBatches(9);
    const { sweeper, staged } = sweeperOf(ledger, pending, { ms: 0 }, 1);
    expect(await sweeper.sweepStale()).toMatchObject({ examined: 9, alreadyFinished: 9, fragmentsStaged: 9, stoppedAtBudget: false });
    expect(staged).toHaveLength(9);
  });
});
