/**
 * Service CPU and garbage collections per push, measured in a process of its own so that its V8
 * heap can be sized apart from the benchmark's: starts the service on the given storage, has
 * warm-up pushes sent, then counted ones, one at a time, and counts this process's CPU and the
 * collections V8 reports while they run. The pushes are built and sent by another process
 * ({@link startPushSender}): a POS's client is not the service, and sending 2.4 MB with `fetch`
 * costs about a quarter of what serving it does.
 */
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { startBenchEnvironment } from './BenchEnvironment.js';
import { startPushSender } from './PushSender.js';
import { ownCpuSeconds } from './processCpu.js';

export interface PushCpuRequest {
  readonly connectionString: string;
  /** Names the partner, so that runs on one emulator stay apart. */
  readonly run: number;
  readonly records: number;
  readonly warmup: number;
  readonly pushes: number;
}

export interface PushCpuReport {
  readonly cpuMsPerPush: number;
  readonly majorGcsPerPush: number;
  readonly minorGcsPerPush: number;
  /** V8's heap limit in this process (old generation plus young), in MB. */
  readonly heapLimitMb: number;
}

export async function runPushCpuJob(request: PushCpuRequest): Promise<PushCpuReport> {
  const env = await startBenchEnvironment({ connectionString: request.connectionString });
  try {
    const storeId = 'CPU-0001';
    const partner = await env.createPartner(`bench-cpu-${request.run}`, [storeId]);
    const sender = await startPushSender(
      { baseUrl: env.service.baseUrl, key: partner.key, storeId, records: request.records, seed: 11 },
      async (body) => (await env.send(partner, 'POST', 'trade-records', body)).status,
    );
    let counting = false;
    let major = 0;
    let minor = 0;
    const observer = new PerformanceObserver((list) => {
      if (!counting) return;
      for (const entry of list.getEntries()) {
        // A gc entry carries its kind in `detail` (Node's typings leave it off PerformanceEntry).
        const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
        else if (kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++;
      }
    });
    observer.observe({ entryTypes: ['gc'] });
    let cpuSeconds = 0;
    try {
      for (let i = 0; i < request.warmup + request.pushes; i++) {
        counting = i >= request.warmup;
        const cpuAtStart = ownCpuSeconds();
        const status = await sender.push(i);
        if (counting) cpuSeconds += ownCpuSeconds() - cpuAtStart;
        if (status !== 202) throw new Error(`push answered ${status}`);
      }
      // GC entries are delivered after the collection; let the last ones arrive.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      counting = false;
      observer.disconnect();
      await sender.stop();
    }
    return {
      cpuMsPerPush: (cpuSeconds * 1000) / request.pushes,
      majorGcsPerPush: major / request.pushes,
      minorGcsPerPush: minor / request.pushes,
      heapLimitMb: getHeapStatistics().heap_size_limit / (1024 * 1024),
    };
  } finally {
    await env.stop();
  }
}
