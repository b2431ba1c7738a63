/**
 * `npm run bench:reports`: the cost of writing a store-day's report files next to its
 * reconciliation. Loads a generated store-day through the push endpoint, sends its daily close,
 * waits for the queued reconciliation, then times in fresh child processes, taking turns:
 * reconciliation alone, reconciliation followed by the report write (the way they are to run
 * together), the report written on its own (a rebuild), and the CPU part of the report alone.
 * Prints a table and `BENCH <name> <value> <unit>` lines. `BENCH_SCALE=smoke` runs a tiny day.
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ReconciliationRepository } from '../src/storage/ReconciliationRepository.js';
import { formatReport, machineInfo, target, type Figure } from './BenchReport.js';
import { awaitResult } from './awaitResult.js';
import { expectAccepted, startBenchEnvironment } from './BenchEnvironment.js';
import { forkJob } from './forkJob.js';
import { loadStoreDay } from './loadStoreDay.js';
import { runReportJob, type ReportJobMode, type ReportJobReport, type ReportJobRequest } from './runReportJob.js';
import { median, round } from './stats.js';
import { runIfEntry } from './runIfEntry.js';

export interface ReportBenchScale {
  readonly name: 'full' | 'smoke';
  readonly transactions: number;
  readonly recordsPerBatch: number;
  /** Child processes per mode, taking turns. */
  readonly rounds: number;
  /** Counted runs per child after one warm-up. */
  readonly iterations: number;
}

const fullReportScale: ReportBenchScale = { name: 'full', transactions: 20_000, recordsPerBatch: 500, rounds: 2, iterations: 3 };
export const smokeReportScale: ReportBenchScale = { name: 'smoke', transactions: 60, recordsPerBatch: 20, rounds: 1, iterations: 1 };

export interface ReportBenchOptions {
  readonly scale?: ReportBenchScale;
  readonly out?: (line: string) => void;
  readonly progress?: (line: string) => void;
}

export async function runReportBench(options: ReportBenchOptions = {}): Promise<Figure[]> {
  const scale = options.scale ?? ((process.env.BENCH_SCALE ?? 'full').toLowerCase() === 'smoke' ? smokeReportScale : fullReportScale);
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const progress = options.progress ?? ((line: string) => process.stderr.write(`[bench] ${line}\n`));
  const loadAtStart = loadavg()[0] ?? 0;
  // A push cut off by a storage deadline (a loaded machine) leaves its batch to the sweep: the
  // loader runs the sweep itself once the batch is this old, instead of waiting for the timer.
  const env = await startBenchEnvironment({
    settings: { BATCH_SWEEP_DELAY_SECONDS: '15' },
    deadlines: { tryTimeoutMs: 60_000, callDeadlineMs: 180_000 },
  });
  const figures: Figure[] = [];
  try {
    const storeId = 'RPT-1';
    const partner = await env.createPartner('bench-report', [storeId]);
    progress(`loading a ${scale.transactions}-transaction store-day through the push endpoint`);
    const { batchCount, close, message, loadSeconds } = await loadStoreDay(env, partner, {
      storeId,
      transactions: scale.transactions,
      recordsPerBatch: scale.recordsPerBatch,
      tagBase: 0x50000000,
      // Two batches in flight: on a shared 2-core machine more starve the emulator into missing deadlines.
      inFlight: 2,
      onResend: (batchSeq, status) => {
        progress(`  batch ${batchSeq} answered ${status}; sending it again in 5 s`);
      },
    });
    progress(`loaded in ${round(loadSeconds, 1)} s; sending the daily close`);
    expectAccepted(await env.send(partner, 'POST', 'daily-close', JSON.stringify(close)), 'daily-close');
    const results = new ReconciliationRepository(env.service.services.storage.tables.reconciliations);
    await awaitResult(results, partner.partnerId, storeId, close.batch_id, { intervalMs: 50, since: performance.now() });

    // Staging first: every later mode finds each batch's fragment staged, as the background leaves it.
    const modes = benchModes();
    const reports = new Map<ReportJobMode, ReportJobReport[]>(modes.map((m) => [m, []]));
    // Another build's child (BENCH_REPORT_BASELINE) times the headline ratio's two sides on the same
    // day, taking turns with this build's, so a change is judged within one run on a shared machine.
    const baselineScript = process.env.BENCH_REPORT_BASELINE;
    const baselineModes: ReportJobMode[] = baselineScript ? modes.filter((m) => m === 'reconcile' || m === 'reconcile+report') : [];
    const baseline = new Map<ReportJobMode, ReportJobReport[]>(baselineModes.map((m) => [m, []]));
    const show = (report: ReportJobReport) => {
      progress(
        `  ${report.times.map((t) => round(t, 0)).join(' / ')} ms, peak RSS ${round(report.peakRssBytes / (1024 * 1024), 0)} MB (${report.outcome})`,
      );
    };
    for (let r = 0; r < scale.rounds; r++) {
      for (const mode of modes) {
        progress(`round ${r + 1}/${scale.rounds}: ${mode}`);
        const report = await runChild({ connectionString: env.connectionString, mode, message, iterations: scale.iterations });
        reports.get(mode)?.push(report);
        show(report);
        if (baselineScript && baselineModes.includes(mode)) {
          progress(`round ${r + 1}/${scale.rounds}: ${mode}, baseline build`);
          const before = await runChild(
            { connectionString: env.connectionString, mode, message, iterations: scale.iterations },
            baselineScript,
          );
          baseline.get(mode)?.push(before);
          show(before);
        }
      }
    }
    if (env.errors.length > 0) throw new Error(`the service logged errors: ${env.errors.slice(0, 3).join(' | ')}`);

    const ms = (mode: ReportJobMode) => median((reports.get(mode) ?? []).flatMap((r) => r.times));
    const rss = (mode: ReportJobMode) => Math.max(...(reports.get(mode) ?? []).map((r) => r.peakRssBytes)) / (1024 * 1024);
    const outcome = (mode: ReportJobMode) => reports.get(mode)?.[0]?.outcome ?? '';
    const tag = scale.transactions % 1000 === 0 ? `${scale.transactions / 1000}k` : String(scale.transactions);
    const targets = scale.name === 'full';
    const add = (name: string, label: string, value: number, unit: string, bound?: { max?: number }) =>
      figures.push({ name, label, value, unit, ...(bound ? { target: target(value, bound, unit, targets) } : {}) });
    // A figure is printed only when the modes it is computed from were run.
    const ran = (...needed: ReportJobMode[]) => needed.every((mode) => modes.includes(mode));
    const reconcile = ms('reconcile');
    if (ran('reconcile')) {
      add(
        `report_reconcile_${tag}_ms`,
        `reconcile ${scale.transactions} transactions alone (${outcome('reconcile')})`,
        round(reconcile, 0),
        'ms',
      );
    }
    if (ran('reconcile+report')) {
      add(
        `report_reconcile_write_${tag}_ms`,
        `reconcile + write the report files (${outcome('reconcile+report')})`,
        round(ms('reconcile+report'), 0),
        'ms',
      );
    }
    if (ran('reconcile', 'reconcile+report')) {
      add(`report_write_${tag}_ratio`, '(reconcile + write) / reconcile', round(ms('reconcile+report') / reconcile, 2), 'x', { max: 1.3 });
    }
    if (ran('reconcile+convert')) {
      add(
        `report_reconcile_convert_${tag}_ms`,
        `reconcile + write with no fragment staged (${outcome('reconcile+convert')})`,
        round(ms('reconcile+convert'), 0),
        'ms',
      );
    }
    if (ran('reconcile', 'reconcile+convert')) {
      add(
        `report_write_unstaged_${tag}_ratio`,
        '(reconcile + write, nothing staged) / reconcile',
        round(ms('reconcile+convert') / reconcile, 2),
        'x',
      );
    }
    if (ran('report')) {
      add(
        `report_rebuild_${tag}_ms`,
        `write the report files alone, listing the index (${outcome('report')})`,
        round(ms('report'), 0),
        'ms',
      );
      add(
        `report_files_${tag}_kib`,
        'size of the four store-day files',
        round((reports.get('report')?.[0]?.fileBytes ?? 0) / 1024, 0),
        'KiB',
      );
    }
    if (baseline.size === 2) {
      const before = (mode: ReportJobMode) => median((baseline.get(mode) ?? []).flatMap((r) => r.times));
      add(`baseline_report_reconcile_${tag}_ms`, 'baseline build: reconcile alone', round(before('reconcile'), 0), 'ms');
      add(`baseline_report_reconcile_write_${tag}_ms`, 'baseline build: reconcile + write', round(before('reconcile+report'), 0), 'ms');
      add(
        `baseline_report_write_${tag}_ratio`,
        'baseline build: (reconcile + write) / reconcile',
        round(before('reconcile+report') / before('reconcile'), 2),
        'x',
      );
    }
    if (ran('stage')) {
      add(
        `report_stage_batch_ms`,
        `background: stage one ${scale.recordsPerBatch}-record batch (download, convert, upload the fragment)`,
        round(ms('stage') / batchCount, 0),
        'ms',
      );
      add(
        `report_fragment_batch_kib`,
        `size of one batch's fragment`,
        round((reports.get('stage')?.[0]?.fileBytes ?? 0) / batchCount / 1024, 0),
        'KiB',
      );
    }
    if (ran('reconcile+report')) {
      add(`report_reconcile_write_${tag}_rss`, 'reconcile + write peak RSS (own process)', round(rss('reconcile+report'), 0), 'MB');
    }
    if (ran('reconcile')) add(`report_reconcile_${tag}_rss`, 'reconcile alone peak RSS (own process)', round(rss('reconcile'), 0), 'MB');
  } finally {
    await env.stop();
  }
  const machine = { ...machineInfo(), loadAverage: `${round(loadAtStart, 1)} at start, ${round(loadavg()[0] ?? 0, 1)} at end (1-minute)` };
  for (const line of formatReport(figures, machine, scale.name, [])) out(line);
  return figures;
}

const allModes: readonly ReportJobMode[] = ['stage', 'reconcile', 'reconcile+report', 'reconcile+convert', 'report'];

/**
 * The modes to time: all by default; `BENCH_REPORT_MODES=reconcile,reconcile+report` times only
 * the headline ratio's two sides (the queued reconciliation has staged every batch's fragment).
 */
function benchModes(): ReportJobMode[] {
  const wanted = process.env.BENCH_REPORT_MODES?.split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  if (wanted === undefined || wanted.length === 0) return [...allModes];
  const unknown = wanted.filter((m) => !(allModes as readonly string[]).includes(m));
  if (unknown.length > 0) throw new Error(`BENCH_REPORT_MODES names unknown modes: ${unknown.join(', ')}`);
  return allModes.filter((m) => wanted.includes(m));
}

/** Runs a job in a child process of the compiled benchmark (another build's with BENCH_REPORT_BASELINE); see {@link forkJob}. */
function runChild(request: ReportJobRequest, script = path.join(__dirname, 'reportChild.js')): Promise<ReportJobReport> {
  return forkJob('report', script, request, runReportJob);
}

runIfEntry(typeof module === 'undefined' ? undefined : module, 'report bench', runReportBench);
