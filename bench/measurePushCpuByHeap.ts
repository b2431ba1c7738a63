import path from 'node:path';
import type { BenchScale } from './benchScale.js';
import { forkJob } from './forkJob.js';
import { instanceHeapFlags } from './instanceHeap.js';
import { runPushCpuJob, type PushCpuReport } from './runPushCpuJob.js';
import { median, round } from './stats.js';

/** One side of the comparison: medians over its child processes. */
export interface PushCpuSide {
  readonly cpuMsPerPush: number;
  readonly majorGcsPerPush: number;
  readonly minorGcsPerPush: number;
  readonly heapLimitMb: number;
}

export interface PushCpuByHeapResult {
  /** The heap Node sizes for this machine's memory. */
  readonly machineHeap: PushCpuSide;
  /** The heap Node sizes for an instance's memory ({@link instanceHeapFlags}). */
  readonly instanceHeap: PushCpuSide;
  /** instanceHeap ÷ machineHeap CPU per push. */
  readonly ratio: number;
}

/**
 * The same sequential pushes in child processes whose heaps are sized for this machine and for an
 * instance, taking turns (`scale.pushCpuRounds` of each), so drift of the machine hits both alike.
 * From TypeScript sources (the smoke tests) both run in this process, without the flags.
 */
export async function measurePushCpuByHeap(connectionString: string, scale: BenchScale): Promise<PushCpuByHeapResult> {
  const script = path.join(__dirname, 'pushCpuChild.js');
  const machine: PushCpuReport[] = [];
  const instance: PushCpuReport[] = [];
  let run = 0;
  const measure = (execArgv: readonly string[]) =>
    forkJob(
      'push CPU',
      script,
      { connectionString, run: run++, records: scale.recordsPerBatch, warmup: scale.latencyWarmup, pushes: scale.latencyIterations },
      runPushCpuJob,
      execArgv,
    );
  for (let i = 0; i < scale.pushCpuRounds; i++) {
    machine.push(await measure([]));
    instance.push(await measure(instanceHeapFlags));
  }
  const side = (reports: readonly PushCpuReport[]): PushCpuSide => ({
    cpuMsPerPush: round(median(reports.map((r) => r.cpuMsPerPush)), 1),
    majorGcsPerPush: round(median(reports.map((r) => r.majorGcsPerPush)), 2),
    minorGcsPerPush: round(median(reports.map((r) => r.minorGcsPerPush)), 2),
    heapLimitMb: round(median(reports.map((r) => r.heapLimitMb)), 0),
  });
  const machineHeap = side(machine);
  const instanceHeap = side(instance);
  return { machineHeap, instanceHeap, ratio: round(instanceHeap.cpuMsPerPush / machineHeap.cpuMsPerPush, 2) };
}
