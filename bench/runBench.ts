/**
 * `npm run bench`: push latency against its storage floor, push throughput, storage requests per
 * batch, reconciliation time and memory against listing the partition, validation throughput.
 * Prints a table, then one `BENCH <name> <value> <unit>` line per figure, and writes the same
 * figures to bench/results.json. `BENCH_SCALE=smoke` runs tiny sizes without targets;
 * `BENCH_PROFILE=emulator|azure` runs one profile (default both).
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { findProjectRoot } from '../src/config/findProjectRoot.js';
import { startAzurite } from '../src/localhost/startAzurite.js';
import { formatReport, machineInfo, target, type Figure, type ReportSection } from './BenchReport.js';
import { startBenchEnvironment, type BenchEnvironment, type BenchProfile } from './BenchEnvironment.js';
import { scaleFromEnv, type BenchScale } from './benchScale.js';
import { instanceMemoryMb } from './instanceHeap.js';
import { measurePushLatency } from './measurePushLatency.js';
import { cappedOldSpaceMb, measureReconcile, type ReconcileResult } from './measureReconcile.js';
import { measureStorageOps } from './measureStorageOps.js';
import { measureThroughput, type ThroughputResult } from './measureThroughput.js';
import { measureValidation } from './measureValidation.js';
import { measureLargePushMemory } from './measureLargePushMemory.js';
import { measurePushCpuByHeap, type PushCpuByHeapResult } from './measurePushCpuByHeap.js';
import { measurePollerLag } from './measurePollerLag.js';
import { measureRoundTrips } from './measureRoundTrips.js';
import { round } from './stats.js';
import { runIfEntry } from './runIfEntry.js';

export interface BenchOptions {
  readonly scale?: BenchScale;
  /** Which profiles to run; default from BENCH_PROFILE (`emulator`, `azure`), else both. */
  readonly profiles?: readonly BenchProfile[];
  /**
   * Storage for every phase of a profile instead of a fresh emulator per phase. The phases of one
   * profile use distinct names, but the two profiles use the same ones: each needs storage of its own.
   */
  readonly storage?: Partial<Readonly<Record<BenchProfile, string>>>;
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

type AddFigure = (name: string, label: string, value: number, unit: string, bound?: { max?: number; min?: number }) => void;

interface PhaseContext {
  readonly scale: BenchScale;
  readonly add: AddFigure;
  readonly progress: (line: string) => void;
  readonly sections: ReportSection[];
  /** A fresh emulator (and service) for one phase, so table growth of one phase does not slow the next. */
  readonly environment: (profile: BenchProfile) => Promise<BenchEnvironment>;
}

export function profilesFromEnv(env: NodeJS.ProcessEnv = process.env): readonly BenchProfile[] {
  const value = (env.BENCH_PROFILE ?? '').toLowerCase();
  if (value === '' || value === 'both') return ['emulator', 'azure'];
  if (value === 'emulator' || value === 'azure') return [value];
  throw new Error(`BENCH_PROFILE must be "emulator", "azure" or "both", not "${value}".`);
}

export async function runBench(options: BenchOptions = {}): Promise<BenchOutcome> {
  const scale = options.scale ?? scaleFromEnv();
  const profiles = options.profiles ?? profilesFromEnv();
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const progress = options.progress ?? ((line: string) => process.stderr.write(`[bench] ${line}\n`));
  const targets = scale.name === 'full';
  const figures: Figure[] = [];
  const add: AddFigure = (name, label, value, unit, bound) =>
    figures.push({ name, label, value, unit, ...(bound ? { target: target(value, bound, unit, targets) } : {}) });
  const sections: ReportSection[] = [];
  const environments: BenchEnvironment[] = [];
  const environment = async (profile: BenchProfile): Promise<BenchEnvironment> => {
    const connectionString = options.storage?.[profile];
    const env = await startBenchEnvironment({ profile, ...(connectionString ? { connectionString } : {}) });
    environments.push(env);
    return env;
  };
  const context: PhaseContext = { scale, add, progress, sections, environment };

  const loadAtStart = loadavg()[0] ?? 0;
  if (profiles.includes('emulator')) await runEmulatorProfile(context, options.storage?.emulator);
  if (profiles.includes('azure')) await runAzureProfile(context);

  const machine = { ...machineInfo(), loadAverage: `${round(loadAtStart, 1)} at start, ${round(loadavg()[0] ?? 0, 1)} at end (1-minute)` };
  const lines = formatReport(figures, machine, `${scale.name}, profiles: ${profiles.join(' + ')}`, sections);
  for (const line of lines) out(line);
  const resultsPath = options.resultsPath === undefined ? path.join(findProjectRoot(), 'bench', 'results.json') : options.resultsPath;
  if (resultsPath) {
    const json = {
      machine,
      scale: scale.name,
      profiles,
      figures: figures.map(({ name, value, unit, target: t }) => ({ name, value, unit, ...(t ? { target: t } : {}) })),
      sections,
    };
    writeFileSync(resultsPath, `${JSON.stringify(json, null, 2)}\n`);
  }
  return { figures, lines };
}

/** Each phase on its own fresh emulator; closes each environment when its phase is done. */
async function inFresh<T>(context: PhaseContext, profile: BenchProfile, phase: (env: BenchEnvironment) => Promise<T>): Promise<T> {
  const env = await context.environment(profile);
  try {
    const result = await phase(env);
    if (env.errors.length > 0) throw new Error(`the service logged errors: ${env.errors.slice(0, 3).join(' | ')}`);
    return result;
  } finally {
    await env.stop();
  }
}

/** The figures of one throughput run; `suffix` tells a second kind of run apart. */
function addThroughput(
  add: AddFigure,
  scale: BenchScale,
  result: ThroughputResult,
  suffix: string,
  storeDays: string,
  bound?: { min: number },
): void {
  add(
    `push_throughput${suffix}`,
    `push throughput, ${storeDays} (${result.partners} partners, ${result.seconds} s)`,
    result.recordsPerSecond,
    'records/s',
    bound,
  );
  add(`push_service_cpu_per_batch${suffix}`, `service CPU per accepted batch (${storeDays})`, result.serviceCpuMsPerBatch, 'ms');
  if (Number.isFinite(result.storageCpuMsPerBatch)) {
    add(`push_storage_cpu_per_batch${suffix}`, `storage emulator CPU per accepted batch (${storeDays})`, result.storageCpuMsPerBatch, 'ms');
    const cpuPerRecord = (result.serviceCpuMsPerBatch + result.storageCpuMsPerBatch) / scale.recordsPerBatch;
    add(
      `push_throughput_cpu_bound${suffix}`,
      'throughput if both cores were ours alone (derived)',
      round((cpus().length * 1000) / cpuPerRecord, 0),
      'records/s',
    );
    // The emulator answers on one thread: its CPU per batch alone bounds the rate.
    add(
      `push_throughput_storage_bound${suffix}`,
      "throughput the emulator's CPU per batch allows on its one thread (derived)",
      round((scale.recordsPerBatch * 1000) / result.storageCpuMsPerBatch, 0),
      'records/s',
    );
  }
  add(`push_throughput_failures${suffix}`, `pushes not accepted (${storeDays})`, result.failures, 'requests');
}

/**
 * Service CPU per push, judged with the heap Node sizes for this machine, and the same with the heap
 * of an instance (no target).
 */
function addPushCpuByHeap(add: AddFigure, records: number, result: PushCpuByHeapResult): void {
  const { machineHeap: machine, instanceHeap: instance } = result;
  add(
    'push_cpu_ms',
    `service CPU per ${records}-record push (own process, sent from another; heap limit ${machine.heapLimitMb} MB)`,
    machine.cpuMsPerPush,
    'ms',
    { max: 60 },
  );
  add(
    'push_cpu_ms_instance_heap',
    `the same, heap limit ${instance.heapLimitMb} MB (a ${instanceMemoryMb} MB instance's)`,
    instance.cpuMsPerPush,
    'ms',
  );
  add('push_cpu_instance_heap_ratio', 'instance heap / machine heap', result.ratio, 'x');
  add('push_major_gcs_machine_heap', 'full collections per push, heap of this machine', machine.majorGcsPerPush, 'GCs');
  add('push_major_gcs_instance_heap', 'full collections per push, heap of an instance', instance.majorGcsPerPush, 'GCs');
  add('push_minor_gcs_machine_heap', 'young-generation collections per push, heap of this machine', machine.minorGcsPerPush, 'GCs');
  add('push_minor_gcs_instance_heap', 'young-generation collections per push, heap of an instance', instance.minorGcsPerPush, 'GCs');
}

/** Runs `measure` on the given storage, or on an emulator started for it and stopped after. */
async function onEmulator<T>(connectionString: string | undefined, measure: (storage: string) => Promise<T>): Promise<T> {
  if (connectionString) return measure(connectionString);
  const azurite = await startAzurite({ inMemory: true });
  try {
    return await measure(azurite.connectionString);
  } finally {
    await azurite.stop();
  }
}

function dayTag(transactions: number): string {
  return transactions % 1000 === 0 ? `${transactions / 1000}k` : String(transactions);
}

async function runEmulatorProfile(context: PhaseContext, connectionString: string | undefined): Promise<void> {
  const { scale, add, progress, sections } = context;
  progress(`validation alone, ${scale.validationSeconds} s on one core`);
  const validation = measureValidation(scale);

  progress('[emulator] storage requests of one push');
  const ops = await inFresh(context, 'emulator', (env) => measureStorageOps(env, scale));
  sections.push({
    title: 'Storage requests of one push (method and resource):',
    lines: ops.byOperation.map((o) => `${String(o.count).padStart(3)}  ${o.label}`),
  });

  progress(`[emulator] push latency: ${scale.latencyWarmup} warm-up + ${scale.latencyIterations} rounds of push and floor`);
  const latency = await inFresh(context, 'emulator', (env) => measurePushLatency(env, scale));

  progress(
    `[emulator] push throughput, every batch a new store-day: ${scale.throughputPartners} partners for ${scale.throughputSeconds} s`,
  );
  const throughput = await inFresh(context, 'emulator', (env) => measureThroughput(env, scale, 'new'));
  progress(`[emulator] push throughput, one store-day per partner: ${scale.throughputPartners} partners for ${scale.throughputSeconds} s`);
  const oneDay = await inFresh(context, 'emulator', (env) => measureThroughput(env, scale, 'one'));

  const reconciles: ReconcileResult[] = [];
  for (const [i, transactions] of scale.reconcileDays.entries()) {
    progress(`[emulator] reconciliation of a ${transactions}-transaction store-day (load, queue, then child processes)`);
    reconciles.push(
      await inFresh(context, 'emulator', async (env) => {
        const partner = await env.createPartner('bench-reconcile', [`RCN-${transactions}`]);
        return measureReconcile(env, scale, partner, `RCN-${transactions}`, transactions, 0x40000000 + i * 0x100000);
      }),
    );
  }

  progress(
    `[emulator] memory: ${scale.largePushes} concurrent pushes of ${Math.round(scale.largePushBytes / 1024)} KiB (service in its own process)`,
  );
  const largePushes = await onEmulator(connectionString, (storage) => measureLargePushMemory(storage, scale));
  progress(
    `[emulator] push CPU with the heap sized for this machine and for a ${instanceMemoryMb} MB instance: ${scale.pushCpuRounds} child processes each`,
  );
  const pushCpu = await onEmulator(connectionString, (storage) => measurePushCpuByHeap(storage, scale));

  const records = latency.records;
  add('push_body_size', `push body (${records} records)`, Math.round(latency.bodyBytes / 1024), 'KiB');
  add('push_p50', 'push p50 (HTTP, end to end)', latency.pushP50Ms, 'ms');
  add('push_p95', 'push p95', latency.pushP95Ms, 'ms');
  add('push_floor_p50', `floor p50 (blob put + ${latency.floorTransactions} transactions)`, latency.floorP50Ms, 'ms');
  add('push_floor_p95', 'floor p95', latency.floorP95Ms, 'ms');
  add('push_p50_ratio', 'push / floor at p50', latency.p50Ratio, 'x', { max: 1.25 });
  addPushCpuByHeap(add, records, pushCpu);
  addThroughput(add, scale, throughput, '', 'every batch a new store-day', { min: 2500 });
  addThroughput(add, scale, oneDay, '_one_day', 'one store-day per partner, growing');
  const opsTarget = 1 + Math.ceil(ops.records / 100) + 2;
  add('storage_ops_per_batch', `storage requests per ${ops.records}-record push`, ops.total, 'ops', { max: opsTarget });
  add('storage_blob_ops', 'of which blob', ops.blob, 'ops');
  add('storage_table_ops', 'of which table', ops.table, 'ops');
  add('storage_table_transactions', 'of which table transactions', ops.tableTransactions, 'ops');
  add('storage_queue_ops', 'of which queue', ops.queue, 'ops');
  add('storage_retries', 'tries beyond the first of those operations (a busy machine)', ops.retries, 'tries');
  for (const r of reconciles) {
    const tag = dayTag(r.transactions);
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
    add(
      `reconcile_${tag}_cold_rss`,
      `reconcile peak RSS, first run converting all ${r.cold.fragmentsRemoved} batches, none staged (${r.cold.outcome})`,
      r.cold.rssMb,
      'MB',
      { max: 150 },
    );
    add(`reconcile_${tag}_cold_ms`, 'that first run, converting every batch', r.cold.ms, 'ms');
    add(
      `reconcile_${tag}_rss_instance_heap`,
      `reconcile peak RSS, heap sized for a ${instanceMemoryMb} MB instance (${r.instanceHeap.outcome})`,
      r.instanceHeap.rssMb,
      'MB',
    );
    add(
      `reconcile_${tag}_cold_rss_instance_heap`,
      'the first run converting every batch, heap sized the same',
      r.instanceHeap.coldRssMb,
      'MB',
    );
    add(`reconcile_${tag}_queue_ms`, `via the queue, visible → result (${r.queueStatus})`, r.queueMs, 'ms');
    add(`reconcile_${tag}_load_resends`, `pushes of the day sent again after a missed storage deadline`, r.loadResends, 'pushes');
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
}

/**
 * The same service and storage with every storage request delayed as Azure Storage would answer it
 * (bench/azureLatencyModel.ts): round trips waited on one after another, push latency against its
 * floor, reconciling the largest day against listing it, and the queue poller under a burst.
 */
async function runAzureProfile(context: PhaseContext): Promise<void> {
  const { scale, add, progress, sections } = context;
  progress('[azure] sequential storage round trips of a push and of a daily close');
  const trips = await inFresh(context, 'azure', (env) => measureRoundTrips(env, scale));
  sections.push({
    title: 'Longest chain of storage round trips, push (azure profile):',
    lines: trips.push.labels.map((l, i) => `${i + 1}. ${l}`),
  });
  sections.push({
    title: 'Longest chain of storage round trips, daily close (azure profile):',
    lines: trips.close.labels.map((l, i) => `${i + 1}. ${l}`),
  });

  progress(`[azure] push latency: ${scale.latencyWarmup} warm-up + ${scale.latencyIterations} rounds of push and floor`);
  const latency = await inFresh(context, 'azure', (env) => measurePushLatency(env, scale));

  const transactions = scale.reconcileDays.at(-1) ?? 0;
  progress(`[azure] reconciliation of a ${transactions}-transaction store-day`);
  const reconcile = await inFresh(context, 'azure', async (env) => {
    const partner = await env.createPartner('bench-reconcile', [`RCN-${transactions}`]);
    return measureReconcile(env, scale, partner, `RCN-${transactions}`, transactions, 0x50000000);
  });

  progress(
    `[azure] queue poller lag under a burst of ${scale.pollerBurst} messages (host.json batchSize, then ${scale.pollerBatchSizes.join(', ')})`,
  );
  const { lag, lagAtBatchSizes } = await inFresh(context, 'azure', async (env) => {
    const atHostSettings = await measurePollerLag(env.connectionString, scale.pollerBurst);
    const others = [];
    for (const batchSize of scale.pollerBatchSizes) others.push(await measurePollerLag(env.connectionString, scale.pollerBurst, batchSize));
    return { lag: atHostSettings, lagAtBatchSizes: others };
  });

  add(
    'push_sequential_round_trips',
    `storage round trips waited on in sequence, one push (of ${trips.push.requests})`,
    trips.push.length,
    'trips',
    { max: 4 },
  );
  add(
    'close_sequential_round_trips',
    `storage round trips waited on in sequence, daily close (of ${trips.close.requests})`,
    trips.close.length,
    'trips',
    { max: 3 },
  );
  add('push_p50_azure', 'push p50, azure profile', latency.pushP50Ms, 'ms');
  add('push_p95_azure', 'push p95, azure profile', latency.pushP95Ms, 'ms');
  add('push_floor_p50_azure', `floor p50, azure profile (blob put + ${latency.floorTransactions} transactions)`, latency.floorP50Ms, 'ms');
  add('push_p50_ratio_azure', 'push / floor at p50, azure profile', latency.p50Ratio, 'x', { max: 1.3 });
  const tag = dayTag(transactions);
  add(
    `reconcile_${tag}_ms_azure`,
    `reconcile ${transactions} transactions, azure profile (${reconcile.outcome})`,
    reconcile.reconcileMs,
    'ms',
  );
  add(
    `reconcile_${tag}_floor_ms_azure`,
    `list the partition sequentially, azure profile (${reconcile.rows} rows)`,
    reconcile.floorMs,
    'ms',
  );
  add(`reconcile_${tag}_ratio_azure`, 'reconcile / sequential list, azure profile', reconcile.ratio, 'x', { max: 0.6 });
  add(
    `reconcile_${tag}_cold_ms_azure`,
    `first reconciliation converting all ${reconcile.cold.fragmentsRemoved} batches, azure profile (${reconcile.cold.outcome})`,
    reconcile.cold.ms,
    'ms',
  );
  if (reconcile.roundTrips) {
    sections.push({
      title: `Longest chain of storage round trips, reconciliation of ${transactions} transactions (azure profile):`,
      lines: reconcile.roundTrips.reconcile.labels.map((l, i) => `${i + 1}. ${l}`),
    });
    add(
      `reconcile_${tag}_sequential_round_trips`,
      `storage round trips waited on in sequence, one reconciliation (of ${reconcile.roundTrips.reconcile.requests})`,
      reconcile.roundTrips.reconcile.length,
      'trips',
    );
    add(
      `reconcile_${tag}_floor_round_trips`,
      `storage round trips waited on in sequence, sequential list (of ${reconcile.roundTrips.floor.requests})`,
      reconcile.roundTrips.floor.length,
      'trips',
    );
  }
  add(`reconcile_${tag}_queue_ms_azure`, `via the queue, azure profile (${reconcile.queueStatus})`, reconcile.queueMs, 'ms');
  add(
    'poller_idle_wait_ms',
    `queue poller backed off (host.json maxPollingInterval): first message visible → started`,
    lag.idleWaitMs,
    'ms',
  );
  add('poller_lag_p50_ms', `queue poller awake, burst of ${lag.messages}: visible → handler started, p50`, lag.p50Ms, 'ms');
  add(
    'poller_lag_p95_ms',
    `queue poller awake, burst of ${lag.messages}, batchSize ${lag.batchSize}: visible → handler started, p95`,
    lag.p95Ms,
    'ms',
    { max: 200 },
  );
  for (const other of lagAtBatchSizes) {
    add(
      `poller_lag_p95_ms_batch_${other.batchSize}`,
      `the same with batchSize ${other.batchSize} (up to ${other.batchSize + Math.floor(other.batchSize / 2)} at once)`,
      other.p95Ms,
      'ms',
    );
  }
}

runIfEntry(typeof module === 'undefined' ? undefined : module, 'bench', runBench);
