/**
 * `npm run bench`: push latency against its storage floor, push throughput, storage requests per
 * batch, reconciliation time and memory against listing the partition, validation throughput.
 * Prints a table, then one `BENCH <name> <value> <unit>` line per figure, and writes the same
 * figures to bench/results.json. `BENCH_SCALE=smoke` runs tiny sizes without targets.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { findProjectRoot } from '../src/config/findProjectRoot.js';
import { formatReport, machineInfo, target, type Figure } from './BenchReport.js';
import { startBenchEnvironment } from './BenchEnvironment.js';
import { scaleFromEnv, type BenchScale } from './benchScale.js';
import { measurePushLatency } from './measurePushLatency.js';
import { cappedOldSpaceMb, measureReconcile, type ReconcileResult } from './measureReconcile.js';
import { measureStorageOps } from './measureStorageOps.js';
import { measureThroughput } from './measureThroughput.js';
import { measureValidation } from './measureValidation.js';
import { measureLargePushMemory } from './measureLargePushMemory.js';
import { round } from './stats.js';

export interface BenchOptions {
  readonly scale?: BenchScale;
  /** Use this storage emulator instead of starting one. */
  readonly connectionString?: string;
  /** Where the report goes, line by line (stdout by default). */
  readonly out?: (line: string) => void;
  /** Progress notes (stderr by default). */
  readonly progress?: (line: string) => void;
  /** Where results.json goes; null writes none. Default bench/results.json. */
  readonly resultsPath?: string | null;
}

export interface BenchOutcome {
  readonly figures: readonly Figure[];
  readonly lines: readonly string[];
}

export async function runBench(options: BenchOptions = {}): Promise<BenchOutcome> {
  const scale = options.scale ?? scaleFromEnv();
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const progress = options.progress ?? ((line: string) => process.stderr.write(`[bench] ${line}\n`));
  const targets = scale.name === 'full';
  const figures: Figure[] = [];
  const add = (name: string, label: string, value: number, unit: string, bound?: { max?: number; min?: number }) =>
    figures.push({ name, label, value, unit, ...(bound ? { target: target(value, bound, unit, targets) } : {}) });

  const loadAtStart = loadavg()[0] ?? 0;
  progress(`validation alone, ${scale.validationSeconds} s on one core`);
  const validation = measureValidation(scale);

  progress('starting the storage emulator and the local service');
  const env = await startBenchEnvironment(options.connectionString ? { connectionString: options.connectionString } : {});
  let breakdown: string[] = [];
  try {
    progress('storage requests of one push');
    const ops = await measureStorageOps(env, scale);
    breakdown = ops.byOperation.map((o) => `${String(o.count).padStart(3)}  ${o.label}`);

    progress(`push latency: ${scale.latencyWarmup} warm-up + ${scale.latencyIterations} rounds of push and floor`);
    const latency = await measurePushLatency(env, scale);

    progress(`push throughput: ${scale.throughputPartners} partners for ${scale.throughputSeconds} s`);
    const throughput = await measureThroughput(env, scale);

    const reconciles: ReconcileResult[] = [];
    const partner = await env.createPartner(
      'bench-reconcile',
      scale.reconcileDays.map((n) => `RCN-${n}`),
    );
    for (const [i, transactions] of scale.reconcileDays.entries()) {
      progress(`reconciliation of a ${transactions}-transaction store-day (load, queue, then child processes)`);
      reconciles.push(await measureReconcile(env, scale, partner, `RCN-${transactions}`, transactions, 0x40000000 + i * 0x100000));
    }
    if (env.errors.length > 0) throw new Error(`the service logged errors: ${env.errors.slice(0, 3).join(' | ')}`);

    progress(
      `memory: ${scale.largePushes} concurrent pushes of ${Math.round(scale.largePushBytes / 1024)} KiB (service in its own process)`,
    );
    const largePushes = await measureLargePushMemory(env.connectionString, scale);

    const records = latency.records;
    add('push_body_size', `push body (${records} records)`, Math.round(latency.bodyBytes / 1024), 'KiB');
    add('push_p50', 'push p50 (HTTP, end to end)', latency.pushP50Ms, 'ms');
    add('push_p95', 'push p95', latency.pushP95Ms, 'ms');
    add('push_floor_p50', `floor p50 (blob put + ${latency.floorTransactions} transactions)`, latency.floorP50Ms, 'ms');
    add('push_floor_p95', 'floor p95', latency.floorP95Ms, 'ms');
    add('push_p50_ratio', 'push / floor at p50', latency.p50Ratio, 'x', { max: 1.25 });
    add(
      'push_throughput',
      `push throughput (${throughput.partners} partners, ${throughput.seconds} s)`,
      throughput.recordsPerSecond,
      'records/s',
      { min: 2000 },
    );
    add('push_service_cpu_per_batch', 'service CPU per accepted batch (throughput run)', throughput.serviceCpuMsPerBatch, 'ms');
    if (Number.isFinite(throughput.storageCpuMsPerBatch)) {
      add('push_storage_cpu_per_batch', 'storage emulator CPU per accepted batch', throughput.storageCpuMsPerBatch, 'ms');
      const cpuPerRecord = (throughput.serviceCpuMsPerBatch + throughput.storageCpuMsPerBatch) / scale.recordsPerBatch;
      add(
        'push_throughput_cpu_bound',
        'throughput if both cores were ours alone (derived)',
        round((cpus().length * 1000) / cpuPerRecord, 0),
        'records/s',
      );
    }
    add('push_throughput_failures', 'pushes not accepted during throughput', throughput.failures, 'requests');
    const opsTarget = 1 + Math.ceil(ops.records / 100) + 2;
    add('storage_ops_per_batch', `storage requests per ${ops.records}-record push`, ops.total, 'ops', { max: opsTarget });
    add('storage_blob_ops', 'of which blob', ops.blob, 'ops');
    add('storage_table_ops', 'of which table', ops.table, 'ops');
    add('storage_table_transactions', 'of which table transactions', ops.tableTransactions, 'ops');
    add('storage_queue_ops', 'of which queue', ops.queue, 'ops');
    for (const r of reconciles) {
      const tag = r.transactions % 1000 === 0 ? `${r.transactions / 1000}k` : String(r.transactions);
      add(`reconcile_${tag}_ms`, `reconcile ${r.transactions} transactions (${r.outcome})`, r.reconcileMs, 'ms');
      add(`reconcile_${tag}_floor_ms`, `list the partition (${r.rows} rows)`, r.floorMs, 'ms');
      add(`reconcile_${tag}_ratio`, 'reconcile / list', r.ratio, 'x', { max: 1.2 });
      add(`reconcile_${tag}_rss`, 'reconcile peak RSS (own process)', r.reconcileRssMb, 'MB', { max: 150 });
      add(`reconcile_${tag}_floor_rss`, 'list peak RSS (own process)', r.floorRssMb, 'MB');
      add(
        `reconcile_${tag}_capped_rss`,
        `reconcile peak RSS, heap capped at ${cappedOldSpaceMb} MB (${r.cappedOutcome})`,
        r.cappedRssMb,
        'MB',
      );
      add(`reconcile_${tag}_queue_ms`, `via the queue, visible → result (${r.queueStatus})`, r.queueMs, 'ms');
    }
    const answered = Object.entries(largePushes.statuses)
      .map(([status, n]) => `${n}×${status}`)
      .join(', ');
    add(
      scale.name === 'full' ? 'rss_20x5mb_mb' : 'rss_large_pushes_mb',
      `peak RSS, ${largePushes.pushes} concurrent ${Math.round(largePushes.bodyBytes / 1024)} KiB pushes (${answered})${largePushes.ownProcess ? '' : ', whole process'}`,
      largePushes.peakRssMb,
      'MB',
      { max: 300 },
    );
    add('validate_throughput', 'parse + schema + semantic checks, one core', validation.recordsPerSecond, 'records/s');
    add('validate_ms_per_batch', `validation of one ${records}-record batch`, validation.msPerBatch, 'ms');
  } finally {
    await env.stop();
  }

  const machine = { ...machineInfo(), loadAverage: `${round(loadAtStart, 1)} at start, ${round(loadavg()[0] ?? 0, 1)} at end (1-minute)` };
  const lines = formatReport(figures, machine, scale.name, breakdown);
  for (const line of lines) out(line);
  const resultsPath = options.resultsPath === undefined ? path.join(findProjectRoot(), 'bench', 'results.json') : options.resultsPath;
  if (resultsPath) {
    const json = {
      machine,
      scale: scale.name,
      figures: figures.map(({ name, value, unit, target: t }) => ({ name, value, unit, ...(t ? { target: t } : {}) })),
      storageRequestsOfOnePush: breakdown.map((b) => b.trim()),
    };
    writeFileSync(resultsPath, `${JSON.stringify(json, null, 2)}\n`);
  }
  return { figures, lines };
}

// Run as a script (node dist/bench/runBench.js); imported by the smoke test, it only exports.
if (typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module) {
  runBench().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
