/**
 * `npm run bench:reconciliations`: the memory of reconciliations run side by side in one process,
 * which decides how many one instance may run at once (`maxConcurrentReconciliations`). Loads as
 * many generated store-days as that limit through the push endpoint, reconciles each once through
 * the queue, then in fresh child processes reconciles k of them at once, for several k up to the
 * limit, sampling the process's resident memory; then the limit again with none of the days'
 * report fragments staged. Prints a table and `BENCH <name> <value> <unit>` lines.
 * `BENCH_SCALE=smoke` runs three tiny days.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { maxConcurrentReconciliations } from '../src/services/maxConcurrentReconciliations.js';
import { ReconciliationRepository } from '../src/storage/ReconciliationRepository.js';
import { formatReport, machineInfo, target, type Figure } from './BenchReport.js';
import { awaitResult } from './awaitResult.js';
import { expectAccepted, startBenchEnvironment } from './BenchEnvironment.js';
import { forkReconcileJob } from './forkReconcileJob.js';
import { instanceHeapFlags, instanceMemoryMb } from './instanceHeap.js';
import { loadStoreDay, type LoadedStoreDay } from './loadStoreDay.js';
import { removeStagedFragments } from './removeStagedFragments.js';
import type { ReconcileChildReport } from './runReconcileJob.js';
import { round } from './stats.js';
import { runIfEntry } from './runIfEntry.js';

export interface ReconciliationsBenchScale {
  readonly name: 'full' | 'smoke';
  readonly transactions: number;
  readonly recordsPerBatch: number;
  /** How many reconciliations run at once in each measurement; the last is the number of days loaded. */
  readonly atOnce: readonly number[];
  /** Child processes per k. */
  readonly rounds: number;
}

const fullScale: ReconciliationsBenchScale = {
  name: 'full',
  transactions: 20_000,
  recordsPerBatch: 500,
  atOnce: [1, 4, 8, maxConcurrentReconciliations],
  rounds: 2,
};
export const smokeReconciliationsScale: ReconciliationsBenchScale = {
  name: 'smoke',
  transactions: 40,
  recordsPerBatch: 20,
  atOnce: [1, 3],
  rounds: 1,
};

/**
 * Peak RSS allowed for the limit's k at once: half of a 2,048 MB instance (infra/main.bicep), the
 * other half left to request bodies in flight (MAX_REQUEST_BYTES_IN_FLIGHT) and their parsing,
 * webhook deliveries, and V8's own headroom.
 */
const atLimitRssMaxMb = 1024;

export interface ReconciliationsBenchOptions {
  readonly scale?: ReconciliationsBenchScale;
  readonly out?: (line: string) => void;
  readonly progress?: (line: string) => void;
}

export async function runReconciliationsBench(options: ReconciliationsBenchOptions = {}): Promise<Figure[]> {
  const smoke = (process.env.BENCH_SCALE ?? 'full').toLowerCase() === 'smoke';
  const scale = options.scale ?? (smoke ? smokeReconciliationsScale : fullScale);
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const progress = options.progress ?? ((line: string) => process.stderr.write(`[bench] ${line}\n`));
  const loadAtStart = loadavg()[0] ?? 0;
  const dayCount = Math.max(...scale.atOnce);
  // Long deadlines: the loaded emulator answers on one thread, and the children list k days at once.
  const env = await startBenchEnvironment({ deadlines: { tryTimeoutMs: 60_000, callDeadlineMs: 180_000 } });
  const figures: Figure[] = [];
  try {
    const storeIds = Array.from({ length: dayCount }, (_, i) => `RAO-${String(i).padStart(4, '0')}`);
    const partner = await env.createPartner('bench-at-once', storeIds);
    const results = new ReconciliationRepository(env.service.services.storage.tables.reconciliations);
    const days: LoadedStoreDay[] = [];
    for (const [i, storeId] of storeIds.entries()) {
      const started = performance.now();
      const day = await loadStoreDay(env, partner, {
        storeId,
        transactions: scale.transactions,
        recordsPerBatch: scale.recordsPerBatch,
        tagBase: 0x70000000 + i * 0x100000,
      });
      expectAccepted(await env.send(partner, 'POST', 'daily-close', JSON.stringify(day.close)), 'daily-close');
      const status = await awaitResult(results, partner.partnerId, storeId, day.message.closeBatchId, {
        intervalMs: 50,
        since: performance.now(),
      });
      if (status !== 'MATCHED') throw new Error(`store-day ${storeId} reconciled ${status}, not MATCHED`);
      days.push(day);
      progress(
        `day ${i + 1}/${dayCount}: ${scale.transactions} transactions loaded and reconciled in ${round((performance.now() - started) / 1000, 0)} s`,
      );
    }

    const targets = scale.name === 'full';
    const tag = scale.transactions % 1000 === 0 ? `${scale.transactions / 1000}k` : String(scale.transactions);
    const mb = (bytes: number) => round(bytes / (1024 * 1024), 0);
    const peaks = new Map<number, number>();
    for (const k of scale.atOnce) {
      const reports: ReconcileChildReport[] = [];
      for (let r = 0; r < scale.rounds; r++) {
        const report = await forkReconcileJob({
          connectionString: env.connectionString,
          mode: 'at-once',
          messages: days.slice(0, k).map((d) => d.message),
        });
        if (report.outcome !== 'MATCHED') throw new Error(`${k} reconciliations at once gave ${report.outcome}, not MATCHED`);
        reports.push(report);
        progress(
          `${k} at once: peak RSS ${mb(report.peakRssBytes)} MB (${mb(report.startRssBytes)} at start), ${round(report.times[0] ?? 0, 0)} ms`,
        );
      }
      const peak = mb(Math.max(...reports.map((r) => r.peakRssBytes)));
      peaks.set(k, peak);
      const atLimit = k === maxConcurrentReconciliations;
      figures.push({
        name: `reconcile_${tag}_at_once_${k}_rss`,
        label: `peak RSS, ${k} store-day${k === 1 ? '' : 's'} of ${scale.transactions} reconciled at once in one process${atLimit ? ' (the limit)' : ''}`,
        value: peak,
        unit: 'MB',
        ...(atLimit ? { target: target(peak, { max: atLimitRssMaxMb }, 'MB', targets) } : {}),
      });
      figures.push({
        name: `reconcile_${tag}_at_once_${k}_ms`,
        label: `until the last of the ${k} results was stored (slowest run)`,
        value: round(Math.max(...reports.flatMap((r) => r.times)), 0),
        unit: 'ms',
      });
    }
    // Every loaded day at once (the limit), in a fresh child process, required MATCHED.
    const reconcileEveryDay = async (what: string, execArgv: readonly string[] = []): Promise<ReconcileChildReport> => {
      const messages = days.map((d) => d.message);
      const report = await forkReconcileJob({ connectionString: env.connectionString, mode: 'at-once', messages }, execArgv);
      if (report.outcome !== 'MATCHED')
        throw new Error(`${dayCount} reconciliations at once (${what}) gave ${report.outcome}, not MATCHED`);
      return report;
    };
    const removeFragments = () => removeStagedFragments(env.service.services.storage.reports, partner.partnerId);
    // The same limit with none of the days' fragments staged: every batch is converted from its
    // raw body, as when a new mapping sends the partner's closed days to be reconciled again.
    const coldReports: ReconcileChildReport[] = [];
    for (let r = 0; r < scale.rounds; r++) {
      const removed = await removeFragments();
      const report = await reconcileEveryDay('cold');
      coldReports.push(report);
      progress(
        `${dayCount} at once, ${removed} fragments removed first: peak RSS ${mb(report.peakRssBytes)} MB, ${round(report.times[0] ?? 0, 0)} ms`,
      );
    }
    const coldPeak = mb(Math.max(...coldReports.map((r) => r.peakRssBytes)));
    figures.push({
      name: `reconcile_${tag}_at_once_${dayCount}_cold_rss`,
      label: `the same ${dayCount} at once with no fragment staged (every batch converted from its raw body)`,
      value: coldPeak,
      unit: 'MB',
      ...(dayCount === maxConcurrentReconciliations ? { target: target(coldPeak, { max: atLimitRssMaxMb }, 'MB', targets) } : {}),
    });
    figures.push({
      name: `reconcile_${tag}_at_once_${dayCount}_cold_ms`,
      label: 'until the last of those results was stored (slowest run)',
      value: round(Math.max(...coldReports.flatMap((r) => r.times)), 0),
      unit: 'ms',
    });
    // The limit again, warm and cold, in a process whose heap V8 sized for an instance's memory
    // (instanceHeapFlags) rather than this machine's: what the limit holds, and that it fits that heap.
    for (const staged of [true, false]) {
      if (!staged) await removeFragments();
      const what = staged ? 'warm' : 'with no fragment staged';
      const report = await reconcileEveryDay(`${what}, heap sized for an instance`, instanceHeapFlags);
      progress(`${dayCount} at once ${what}, heap sized for a ${instanceMemoryMb} MB instance: peak RSS ${mb(report.peakRssBytes)} MB`);
      figures.push({
        name: `reconcile_${tag}_at_once_${dayCount}${staged ? '' : '_cold'}_rss_instance_heap`,
        label: `the same ${dayCount} at once ${what}, heap sized for a ${instanceMemoryMb} MB instance (${instanceHeapFlags.join(' ')})`,
        value: mb(report.peakRssBytes),
        unit: 'MB',
      });
    }
    const fewest = Math.min(...scale.atOnce);
    const most = Math.max(...scale.atOnce);
    figures.push({
      name: `reconcile_${tag}_rss_per_extra`,
      label: `peak RSS added per reconciliation beside others (${fewest} → ${most} at once)`,
      value: round(((peaks.get(most) ?? 0) - (peaks.get(fewest) ?? 0)) / (most - fewest), 1),
      unit: 'MB',
    });
    if (env.errors.length > 0) throw new Error(`the service logged errors: ${env.errors.slice(0, 3).join(' | ')}`);
  } finally {
    await env.stop();
  }
  const machine = { ...machineInfo(), loadAverage: `${round(loadAtStart, 1)} at start, ${round(loadavg()[0] ?? 0, 1)} at end (1-minute)` };
  for (const line of formatReport(figures, machine, scale.name, [])) out(line);
  return figures;
}

runIfEntry(typeof module === 'undefined' ? undefined : module, 'reconciliations bench', runReconciliationsBench);
