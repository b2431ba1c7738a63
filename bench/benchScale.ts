/** How big each measurement is. `BENCH_SCALE=smoke` runs tiny sizes that only prove the harness works. */
export interface BenchScale {
  readonly name: 'full' | 'smoke';
  readonly recordsPerBatch: number;
  readonly latencyWarmup: number;
  readonly latencyIterations: number;
  /** Child processes per heap size in the push CPU comparison, taking turns. */
  readonly pushCpuRounds: number;
  readonly throughputPartners: number;
  readonly throughputSeconds: number;
  /** Store-day sizes reconciled, smallest first; the last one is the headline figure. */
  readonly reconcileDays: readonly number[];
  /** Child processes per side (floor, reconciliation), taking turns. */
  readonly reconcileRounds: number;
  /** Counted runs in each child, after one warm-up run. */
  readonly reconcileIterations: number;
  readonly validationSeconds: number;
  /** Concurrent large pushes of the memory figure, and the size of each. */
  readonly largePushes: number;
  readonly largePushBytes: number;
  /** Messages sent at once to measure the queue poller's lag. */
  readonly pollerBurst: number;
  /**
   * Queue batch sizes, besides host.json's, at which the same burst is measured again, to show what
   * host.json's batchSize buys (no target; host.json's is the figure judged).
   */
  readonly pollerBatchSizes: readonly number[];
}

const fullScale: BenchScale = {
  name: 'full',
  recordsPerBatch: 500,
  latencyWarmup: 3,
  latencyIterations: 30,
  pushCpuRounds: 2,
  throughputPartners: 4,
  throughputSeconds: 20,
  reconcileDays: [5_000, 20_000],
  reconcileRounds: 2,
  reconcileIterations: 3,
  validationSeconds: 3,
  largePushes: 20,
  largePushBytes: 5 * 1024 * 1024 - 4096,
  pollerBurst: 100,
  pollerBatchSizes: [8, 16],
};

/** @internal also run by the bench smoke test. */
export const smokeScale: BenchScale = {
  name: 'smoke',
  recordsPerBatch: 20,
  latencyWarmup: 1,
  latencyIterations: 2,
  pushCpuRounds: 1,
  throughputPartners: 2,
  throughputSeconds: 1,
  reconcileDays: [40],
  reconcileRounds: 1,
  reconcileIterations: 1,
  validationSeconds: 0.2,
  largePushes: 3,
  largePushBytes: 256 * 1024,
  pollerBurst: 10,
  pollerBatchSizes: [8],
};

export function scaleFromEnv(env: NodeJS.ProcessEnv = process.env): BenchScale {
  const name = (env.BENCH_SCALE ?? 'full').toLowerCase();
  if (name === 'smoke') return smokeScale;
  if (name === 'full') return fullScale;
  throw new Error(`BENCH_SCALE must be "full" or "smoke", not "${name}".`);
}
