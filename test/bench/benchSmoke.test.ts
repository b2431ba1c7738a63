import { describe, expect, it } from 'vitest';
import { runBench } from '../../bench/runBench.js';
import { smokeScale } from '../../bench/benchScale.js';
import { claimTestAccount } from '../support/startTestService.js';

describe('npm run bench at smoke size', () => {
  it('produces every figure as a finite BENCH line, after the table', async () => {
    const lines: string[] = [];
    // An account of the run's emulator per profile instead of an emulator started per phase: the
    // full run's fresh emulators keep table growth out of its figures, which this test does not read.
    const emulator = claimTestAccount();
    const azure = claimTestAccount();
    const { figures } = await runBench({
      scale: smokeScale,
      ...(emulator === undefined || azure === undefined ? {} : { storage: { emulator, azure } }),
      out: (line) => lines.push(line),
      progress: () => undefined,
      resultsPath: null,
    });

    const benchLines = lines.filter((line) => line.startsWith('BENCH '));
    expect(benchLines.length).toBe(figures.length);
    // The machine-readable lines come last.
    expect(lines.slice(-benchLines.length)).toEqual(benchLines);
    for (const line of benchLines) {
      const [, name, value, unit] = line.split(' ');
      expect(name, line).toMatch(/^[a-z0-9_]+$/);
      expect(Number.isFinite(Number(value)), line).toBe(true);
      expect(unit, line).toBeTruthy();
    }
    const names = new Set(benchLines.map((line) => line.split(' ')[1]));
    for (const name of [
      'push_p50',
      'push_p95',
      'push_floor_p50',
      'push_p50_ratio',
      'push_throughput',
      'push_throughput_one_day',
      'storage_ops_per_batch',
      'storage_retries',
      'storage_blob_ops',
      'storage_table_transactions',
      'validate_throughput',
      'push_cpu_ms',
      'push_cpu_ms_instance_heap',
      'push_cpu_instance_heap_ratio',
      'push_major_gcs_machine_heap',
      'push_major_gcs_instance_heap',
      'push_minor_gcs_machine_heap',
      'push_minor_gcs_instance_heap',
      'push_sequential_round_trips',
      'close_sequential_round_trips',
      'push_p50_ratio_azure',
      `reconcile_${smokeScale.reconcileDays.at(-1) ?? 0}_ratio_azure`,
      'poller_lag_p95_ms',
      ...smokeScale.pollerBatchSizes.map((batchSize) => `poller_lag_p95_ms_batch_${batchSize}`),
      ...smokeScale.reconcileDays.flatMap((n) => [
        `reconcile_${n}_ms`,
        `reconcile_${n}_ratio`,
        `reconcile_${n}_rss`,
        `reconcile_${n}_queue_ms`,
        `reconcile_${n}_cold_rss`,
        `reconcile_${n}_cold_ms`,
        `reconcile_${n}_rss_instance_heap`,
        `reconcile_${n}_cold_rss_instance_heap`,
      ]),
    ]) {
      expect(names, name).toContain(name);
    }
    // Every day reconciled to the totals its generator computed: in process, through the queue,
    // with a capped heap, converting every batch, and with the heap sized for an instance; the
    // largest day also in the azure profile (in process, through the queue and converting every batch).
    expect(lines.filter((line) => line.includes('(MATCHED)')).length).toBe(smokeScale.reconcileDays.length * 5 + 3);
    // The cold run found every batch of the day staged by the runs before it, and converted them all.
    for (const n of smokeScale.reconcileDays) {
      const batches = Math.ceil(n / smokeScale.recordsPerBatch);
      expect(lines.filter((line) => line.includes(`first run converting all ${batches} batches, none staged (MATCHED)`))).toHaveLength(1);
    }
    // A push waits on at least the key lookup, the blob put and the ledger commit, one after another.
    expect(figures.find((f) => f.name === 'push_sequential_round_trips')?.value).toBeGreaterThanOrEqual(3);
    // One raw-body blob per push, and the index written in transactions. On a busy machine the SDK
    // may try the put again after its first try had landed: the retry is refused as already there,
    // and the push reads the stored blob's hash to tell its own body from another's (one more blob
    // operation per retry at most). With no retry, exactly one.
    const blobOps = figures.find((f) => f.name === 'storage_blob_ops')?.value ?? 0;
    const retries = figures.find((f) => f.name === 'storage_retries')?.value ?? Number.NaN;
    expect(blobOps).toBeGreaterThanOrEqual(1);
    expect(blobOps - 1).toBeLessThanOrEqual(retries);
    expect(figures.find((f) => f.name === 'storage_table_transactions')?.value).toBeGreaterThanOrEqual(1);
    // Under a minute in a full run; the bound only stops a hung harness.
  }, 300_000);
});
