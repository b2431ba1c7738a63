/**
 * One report measurement in a process of its own (so its memory is its own): connects to the
 * storage emulator and, after a warm-up run, times one of
 * - `reconcile`: the service's reconciliation of the store-day, alone;
 * - `reconcile+report`: the same reconciliation, its index listing also collecting the latest
 *   versions, then the store-day's report files written from them (how the reconciliation is to
 *   call the report writer);
 * - `report`: the report files written on their own, listing the index itself (a rebuild);
 * - `build`: the CPU part alone: parse the raw batches (downloaded beforehand), build the rows and
 *   encode the Parquet files, no storage request.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config/loadConfig.js';
import type { TradeRecordBatch } from '../src/domain/model/payloads.js';
import { LatestVersions } from '../src/reports/LatestVersions.js';
import { loadParquetWriter } from '../src/reports/loadParquetWriter.js';
import type { ReconciledStoreDay } from '../src/reports/ReconciledStoreDay.js';
import { StoreDayReportBuilder } from '../src/reports/StoreDayReportBuilder.js';
import { MappingCatalog } from '../src/services/catalog/MappingCatalog.js';
import { createAppServices } from '../src/services/createAppServices.js';
import { DayReconciler } from '../src/services/DayReconciler.js';
import type { ReconcileMessage } from '../src/services/ReconcileMessage.js';
import { StoreDayReportService } from '../src/services/reports/StoreDayReportService.js';
import { DayCloseRepository } from '../src/storage/DayCloseRepository.js';
import { MappingRepository } from '../src/storage/MappingRepository.js';
import { PaymentDirectionRepository } from '../src/storage/PaymentDirectionRepository.js';
import { RawBatchStore } from '../src/storage/RawBatchStore.js';
import { ReconciliationRepository } from '../src/storage/ReconciliationRepository.js';
import { ReportStore } from '../src/storage/ReportStore.js';
import { ReportStoreDayRepository } from '../src/storage/ReportStoreDayRepository.js';
import { TradeRecordIndex, type DayRow } from '../src/storage/TradeRecordIndex.js';
import { UnmappedUsageRepository } from '../src/storage/UnmappedUsageRepository.js';
import { parseJsonBody } from '../src/validation/parseJsonBody.js';

export type ReportJobMode = 'reconcile' | 'reconcile+report' | 'report' | 'build';

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

/** The trade-record index, with every transaction row it lists also handed to a collector. */
class CollectingIndex extends TradeRecordIndex {
  collector = new LatestVersions();

  override async *listDay(partnerId: string, storeId: string, businessDate: string): AsyncIterable<DayRow> {
    for await (const row of super.listDay(partnerId, storeId, businessDate)) {
      if (row.type === 'transaction') this.collector.add(row.summary);
      yield row;
    }
  }
}

export async function runReportJob(request: ReportJobRequest): Promise<ReportJobReport> {
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 100);
  const config = loadConfig({
    AzureWebJobsStorage: request.connectionString,
    RECONCILE_DELAY_SECONDS: '1',
    MAX_REQUEST_BODY_BYTES: '5242880',
    RATE_LIMIT_PER_MINUTE: '1000000',
    BATCH_SWEEP_DELAY_SECONDS: '600',
    MAX_REQUEST_BYTES_IN_FLIGHT: '26214400',
    REPORTS_CONTAINER: 'reports',
    EVENT_TYPE_PREFIX: 'com.example.pos',
  });
  const services = createAppServices(config);
  await services.storage.reports.createIfNotExists();
  await services.storage.tables.reportStoreDays.createTable();
  const t = services.storage.tables;
  const rawBatches = new RawBatchStore(services.storage.rawBatches);
  const mappings = new MappingCatalog(new MappingRepository(t.mappings), rawBatches);
  const paymentDirections = new PaymentDirectionRepository(t.paymentDirections);
  const results = new ReconciliationRepository(t.reconciliations);
  const closes = new DayCloseRepository(t.dailyCloses);
  const index = new CollectingIndex(t.tradeRecords);
  const reconciler = new DayReconciler({
    closes,
    index,
    results,
    mappings,
    paymentDirections,
    unmappedUsage: new UnmappedUsageRepository(t.unmappedUsage),
    clock: () => new Date(),
    // No webhooks in the benchmark: the figures are the reconciliation's and the report's.
    events: { resultStored: () => Promise.resolve() },
  });
  const reports = new StoreDayReportService({
    index,
    rawBatches,
    files: new ReportStore(services.storage.reports),
    storeDays: new ReportStoreDayRepository(t.reportStoreDays),
    results,
    closes,
    mappings,
    paymentDirections,
    clock: () => new Date(),
  });
  const { partnerId, storeId, businessDate } = request.message;

  const reconciledDay = async (): Promise<ReconciledStoreDay> => {
    const [record, stored] = await Promise.all([
      results.get(partnerId, storeId, businessDate),
      closes.get(partnerId, storeId, businessDate),
    ]);
    if (!record?.actual || !record.checkedAt || record.status === 'RECEIVED' || !stored) throw new Error('the store-day is not reconciled');
    return {
      partnerId,
      storeId,
      businessDate,
      status: record.status,
      currency: stored.close.currency,
      expected: record.expected,
      actual: record.actual,
      differences: record.differences,
      reconciledAt: record.checkedAt,
      closeBatchId: record.closeBatchId,
    };
  };

  let outcome = '';
  let fileBytes = 0;
  const bodies: Buffer[] = [];
  if (request.mode === 'build') {
    const latest = new LatestVersions();
    for await (const row of index.listDay(partnerId, storeId, businessDate)) if (row.type === 'transaction') latest.add(row.summary);
    for (const batch of latest.batches()) bodies.push((await rawBatches.get(partnerId, batch.batch_id)) ?? Buffer.alloc(0));
  }
  const once = async (): Promise<void> => {
    if (request.mode === 'reconcile') {
      outcome = await services.reconciler.reconcile(request.message);
    } else if (request.mode === 'reconcile+report') {
      index.collector = new LatestVersions();
      outcome = await reconciler.reconcile(request.message);
      const [mapping, directions] = await Promise.all([mappings.current(partnerId), paymentDirections.listForPartner(partnerId)]);
      const written = await reports.write(await reconciledDay(), {
        mapping: mapping.byCode,
        paymentDirections: directions,
        latest: index.collector,
      });
      outcome = `${outcome}+${written.status}`;
      fileBytes = await storeDayFileBytes();
    } else if (request.mode === 'report') {
      const written = await reports.rebuild(partnerId, storeId, businessDate);
      outcome = written?.status ?? 'not reconciled';
      fileBytes = await storeDayFileBytes();
    } else {
      const mapping = await mappings.current(partnerId);
      const builder = new StoreDayReportBuilder(await loadParquetWriter(), { partnerId, storeId, businessDate, mapping: mapping.byCode });
      for (const body of bodies) {
        const parsed = parseJsonBody(body);
        if (!parsed.ok) throw new Error('a raw batch is not JSON');
        const batch = parsed.value as TradeRecordBatch;
        for (const [i, record] of batch.trade_records.entries())
          builder.add(record, { batch_id: batch.batch_id, batch_seq: batch.batch_seq, index: i });
      }
      const { files } = builder.finish();
      fileBytes = Object.values(files).reduce((sum, f) => sum + (f?.byteLength ?? 0), 0);
      outcome = 'built';
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

  await once();
  const times: number[] = [];
  for (let i = 0; i < request.iterations; i++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  clearInterval(sampler);
  return { times, outcome, fileBytes, peakRssBytes: Math.max(peak, peakRssOfThisProcess() ?? 0) };
}

/** The kernel's high-water mark of this process's resident memory (Linux), not the parent's. */
function peakRssOfThisProcess(): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
