import { noTelemetry } from '../src/observability/Telemetry.js';
/**
 * One report measurement in a process of its own (so its memory is its own): connects to the
 * storage emulator and, after a warm-up run, times one of
 * - `reconcile`: the reconciliation of the store-day, alone (no report files);
 * - `reconcile+report`: the reconciliation with the service's report writer, as deployed:
 *   reconcile, then assemble the report files from the batches' staged fragments and write them
 *   (no webhook events on either side: the ratio is the files' cost);
 * - `reconcile+convert`: the same with no fragment staged: every raw batch converted at reconcile
 *   time (what a day costs when the background staging has not run);
 * - `report`: the report files written on their own, listing the index itself (a rebuild);
 * - `stage`: the background work of every batch in turn: download the raw batch, convert it into
 *   its fragment, upload the fragment (times are per batch).
 */
import { loadConfig } from '../src/config/loadConfig.js';
import { LatestVersions } from '../src/reports/LatestVersions.js';
import { MappingCatalog } from '../src/services/catalog/MappingCatalog.js';
import { createAppServices } from '../src/services/createAppServices.js';
import { DayReconciler } from '../src/services/DayReconciler.js';
import type { ReconcileMessage } from '../src/services/ReconcileMessage.js';
import { StoreDayReportService } from '../src/services/reports/StoreDayReportService.js';
import { DayCloseRepository } from '../src/storage/DayCloseRepository.js';
import { MappingRepository } from '../src/storage/MappingRepository.js';
import { PaymentDirectionRepository } from '../src/storage/PaymentDirectionRepository.js';
import { PaymentTypeUsageRepository } from '../src/storage/PaymentTypeUsageRepository.js';
import { RawBatchStore } from '../src/storage/RawBatchStore.js';
import { ReconciliationRepository } from '../src/storage/ReconciliationRepository.js';
import { ReportFragmentStore } from '../src/storage/ReportFragmentStore.js';
import { ReportStore } from '../src/storage/ReportStore.js';
import { ReportStoreDayRepository } from '../src/storage/ReportStoreDayRepository.js';
import { StoreDaysWriterTable } from '../src/storage/StoreDaysWriterTable.js';
import { StoreDaysRewrites } from '../src/services/reports/StoreDaysRewrites.js';
import { TradeRecordIndex } from '../src/storage/TradeRecordIndex.js';
import { UnmappedUsageRepository } from '../src/storage/UnmappedUsageRepository.js';
import { benchSettings } from './benchSettings.js';
import { sampleRss } from './sampleRss.js';
import { timeRuns } from './timeRuns.js';

export type ReportJobMode = 'reconcile' | 'reconcile+report' | 'reconcile+convert' | 'report' | 'stage';

export interface ReportJobRequest {
  readonly connectionString: string;
  readonly mode: ReportJobMode;
  readonly message: ReconcileMessage;
  readonly iterations: number;
}

export interface ReportJobReport {
  readonly times: number[];
  readonly outcome: string;
  /** Bytes of the four store-day files of the last run. */
  readonly fileBytes: number;
  readonly peakRssBytes: number;
}

export async function runReportJob(request: ReportJobRequest): Promise<ReportJobReport> {
  const rss = sampleRss();
  const config = loadConfig(benchSettings(request.connectionString));
  // Long deadlines: on a shared machine the emulator may take seconds to answer; a run that
  // gives up measures nothing.
  const services = createAppServices(config, { deadlines: { tryTimeoutMs: 60_000, callDeadlineMs: 180_000 } });
  await services.storage.reports.createIfNotExists();
  await services.storage.tables.reportStoreDays.createTable();
  const t = services.storage.tables;
  const rawBatches = new RawBatchStore(services.storage.rawBatches);
  const mappings = new MappingCatalog(new MappingRepository(t.mappings), rawBatches);
  const paymentDirections = new PaymentDirectionRepository(t.paymentDirections);
  const results = new ReconciliationRepository(t.reconciliations);
  const closes = new DayCloseRepository(t.dailyCloses);
  const index = new TradeRecordIndex(t.tradeRecords);
  // No webhooks in the benchmark: the figures are the reconciliation's and the report's.
  const reconcilerWith = (reports?: StoreDayReportService) =>
    new DayReconciler({
      closes,
      index,
      results,
      mappings,
      paymentDirections,
      unmappedUsage: new UnmappedUsageRepository(t.unmappedUsage),
      paymentTypeUsage: new PaymentTypeUsageRepository(t.paymentTypeUsage),
      clock: () => new Date(),
      events: { resultStored: () => Promise.resolve() },
      reports,
    });
  const reconciler = reconcilerWith();
  // The service's report writer on the same reconciler: the ratio's two sides differ only by the files.
  const reportingReconciler = reconcilerWith(services.reports);
  // Nothing staged: every batch is converted from its raw batch, and nothing is staged afterwards.
  const unstaged = new StoreDayReportService({
    index,
    rawBatches,
    files: new ReportStore(services.storage.reports),
    fragments: { get: () => Promise.resolve(undefined), put: () => Promise.resolve() },
    storeDays: new ReportStoreDayRepository(t.reportStoreDays),
    storeDaysRewrites: new StoreDaysRewrites(new StoreDaysWriterTable(t.storeDaysWriters), () => new Date()),
    results,
    closes,
    mappings,
    paymentDirections,
    unmappedCodes: new UnmappedUsageRepository(t.unmappedUsage),
    clock: () => new Date(),
  });
  const unstagedReconciler = reconcilerWith(unstaged);
  const fragments = new ReportFragmentStore(services.storage.reports);
  const { partnerId, storeId, businessDate } = request.message;

  let outcome = '';
  let fileBytes = 0;
  const batchIds: string[] = [];
  if (request.mode === 'stage') {
    const latest = new LatestVersions();
    for await (const row of index.listDay(partnerId, storeId, businessDate)) if (row.type === 'transaction') latest.add(row.summary);
    for (const batch of latest.batches()) batchIds.push(batch.batch_id);
  }
  const once = async (): Promise<void> => {
    if (request.mode === 'reconcile') {
      outcome = await reconciler.reconcile(request.message);
    } else if (request.mode === 'reconcile+report' || request.mode === 'reconcile+convert') {
      const warnings: string[] = [];
      const log = { warn: (line: string) => warnings.push(line) };
      outcome =
        request.mode === 'reconcile+report'
          ? await reportingReconciler.reconcile(request.message, noTelemetry, log)
          : await unstagedReconciler.reconcile(request.message, noTelemetry, log);
      if (warnings.length > 0) throw new Error(warnings.join('; '));
    } else if (request.mode === 'report') {
      const written = await services.reports.rebuild(partnerId, storeId, businessDate);
      outcome = written ? `${written.status}, ${written.batches.staged} staged / ${written.batches.converted} converted` : 'not reconciled';
    } else {
      for (const batchId of batchIds) {
        const staged = await services.reportFragments.stage(partnerId, batchId, { replace: true });
        if (staged !== 'staged') throw new Error(`a batch was not staged: ${JSON.stringify(staged)}`);
      }
      outcome = `${batchIds.length} batches staged`;
    }
  };
  const storeDayFileBytes = async (): Promise<number> => {
    let total = 0;
    for await (const blob of services.storage.reports.listBlobsFlat({ prefix: '' })) {
      if (!blob.name.startsWith('_state/') && !blob.name.startsWith('store_days/') && blob.name.includes(`partner_id=${partnerId}/`)) {
        total += blob.properties.contentLength ?? 0;
      }
    }
    return total;
  };

  const times = await timeRuns(once, request.iterations);
  // Sizes are read once, after the timed runs: reading them is not part of the work measured.
  if (request.mode === 'stage') {
    for (const batchId of batchIds) fileBytes += (await fragments.get(partnerId, batchId))?.length ?? 0;
  } else if (request.mode !== 'reconcile') {
    fileBytes = await storeDayFileBytes();
  }
  return { times, outcome, fileBytes, peakRssBytes: rss.stop() };
}
