import { performance } from 'node:perf_hooks';
import { BatchTemplate } from './BatchTemplate.js';
import { type BenchEnvironment } from './BenchEnvironment.js';
import { benchBusinessDate } from './benchBusinessDate.js';
import { businessDateOfPush } from './businessDateOfPush.js';
import type { BenchScale } from './benchScale.js';
import { childPidMatching, cpuSecondsOf, ownCpuSeconds } from './processCpu.js';
import { round } from './stats.js';

export interface ThroughputResult {
  readonly partners: number;
  readonly seconds: number;
  readonly batches: number;
  readonly records: number;
  readonly recordsPerSecond: number;
  readonly failures: number;
  /** CPU this process (the service and the benchmark's HTTP client) spent per accepted batch. */
  readonly serviceCpuMsPerBatch: number;
  /** CPU the storage emulator spent per accepted batch; NaN when its process is not a child of this one. */
  readonly storageCpuMsPerBatch: number;
}

/**
 * Where each partner's batches go: `one` store-day (its rows grow by a batch with every push) or a
 * `new` store-day for every batch (the partition each push writes stays small).
 */
export type ThroughputStoreDays = 'one' | 'new';

/**
 * Several partners, each pushing batches for its own store back to back (one request in flight
 * per partner) for a fixed time. Counts records of batches acknowledged ACCEPTED within the window.
 *
 * The emulator's cost of a batch grows with the rows its store-day already holds (bench/ROUNDS.md,
 * round 12), so `storeDays` says whether the pushes fill one store-day per partner or each open a
 * new one.
 */
export async function measureThroughput(
  env: BenchEnvironment,
  scale: BenchScale,
  storeDays: ThroughputStoreDays,
): Promise<ThroughputResult> {
  // Partners and stores of each kind of run are named apart: both may run on the same storage.
  const name = storeDays === 'one' ? 'thr' : 'thn';
  const workers = await Promise.all(
    Array.from({ length: scale.throughputPartners }, async (_, p) => {
      const storeId = `${name.toUpperCase()}-${String(p + 1).padStart(4, '0')}`;
      const partner = await env.createPartner(`bench-${name}-${p + 1}`, [storeId]);
      const template = new BatchTemplate({ storeId, businessDate: benchBusinessDate, recordCount: scale.recordsPerBatch, seed: 100 + p });
      return { partner, template, tagBase: 0x1000000 * (p + 1) };
    }),
  );
  const body = (template: BatchTemplate, tag: number, n: number): Buffer =>
    storeDays === 'one' ? template.render(tag) : template.render(tag, businessDateOfPush(n));
  // One unmeasured batch per partner first, so every cache is as warm as in steady state.
  await Promise.all(workers.map((w) => env.send(w.partner, 'POST', 'trade-records', body(w.template, w.tagBase, 0))));

  let batches = 0;
  let records = 0;
  let failures = 0;
  const storagePid = childPidMatching('azurite');
  const storageCpuAtStart = storagePid === undefined ? undefined : cpuSecondsOf(storagePid);
  const ownCpuAtStart = ownCpuSeconds();
  const started = performance.now();
  const deadline = started + scale.throughputSeconds * 1000;
  await Promise.all(
    workers.map(async (w) => {
      for (let n = 1; performance.now() < deadline; n++) {
        const response = await env.send(w.partner, 'POST', 'trade-records', body(w.template, w.tagBase + n, n));
        if (performance.now() > deadline) break;
        if (response.status === 202) {
          batches += 1;
          records += w.template.recordCount;
        } else {
          failures += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const ownCpu = ownCpuSeconds() - ownCpuAtStart;
  const storageCpuAtEnd = storagePid === undefined ? undefined : cpuSecondsOf(storagePid);
  const storageCpu = storageCpuAtStart === undefined || storageCpuAtEnd === undefined ? Number.NaN : storageCpuAtEnd - storageCpuAtStart;
  const perBatch = (cpuSeconds: number) => round((cpuSeconds * 1000) / Math.max(1, batches), 0);
  const window = Math.min(seconds, scale.throughputSeconds);
  return {
    partners: workers.length,
    seconds: round(window, 1),
    batches,
    records,
    recordsPerSecond: round(records / window, 0),
    failures,
    serviceCpuMsPerBatch: perBatch(ownCpu),
    storageCpuMsPerBatch: perBatch(storageCpu),
  };
}
