import type { TradeRecordBatch } from '../../domain/model/payloads.js';
import type { PaymentDirection } from '../../domain/reconciliation/paymentDirection.js';
import { encodeStoreDays } from '../../reports/encodeStoreDays.js';
import { LatestVersions, type BatchSelection } from '../../reports/LatestVersions.js';
import { loadParquetWriter } from '../../reports/loadParquetWriter.js';
import { storeDayRow, type ReconciledStoreDay } from '../../reports/ReconciledStoreDay.js';
import { StoreDayReportBuilder, type StoreDayCounts } from '../../reports/StoreDayReportBuilder.js';
import type { DayCloseRepository } from '../../storage/DayCloseRepository.js';
import type { PaymentDirectionRepository } from '../../storage/PaymentDirectionRepository.js';
import type { RawBatchStore } from '../../storage/RawBatchStore.js';
import type { ReconciliationRepository } from '../../storage/ReconciliationRepository.js';
import type { ReportStore } from '../../storage/ReportStore.js';
import type { ReportStoreDayRepository } from '../../storage/ReportStoreDayRepository.js';
import type { TradeRecordIndex } from '../../storage/TradeRecordIndex.js';
import { parseJsonBody } from '../../validation/parseJsonBody.js';
import type { MappingCatalog } from '../catalog/MappingCatalog.js';

export interface StoreDayReportDependencies {
  readonly index: Pick<TradeRecordIndex, 'listDay'>;
  readonly rawBatches: Pick<RawBatchStore, 'get'>;
  readonly files: ReportStore;
  readonly storeDays: ReportStoreDayRepository;
  /** What a rebuild reads the reconciliation outcome and its inputs from. */
  readonly results: Pick<ReconciliationRepository, 'get'>;
  readonly closes: Pick<DayCloseRepository, 'get'>;
  readonly mappings: Pick<MappingCatalog, 'current'>;
  readonly paymentDirections: Pick<PaymentDirectionRepository, 'listForPartner'>;
  readonly clock: () => Date;
  /** Raw batches downloaded ahead of the one being converted (memory: this many bodies at most, plus one). */
  readonly prefetch?: number;
  /** Rows per Parquet row group. */
  readonly rowGroupRows?: number;
}

/** What the reconciliation used, so that the files say the same as its result. */
export interface ReportInputs {
  /** The partner's mapping in effect: source code → standard code. */
  readonly mapping: ReadonlyMap<string, string>;
  readonly paymentDirections?: ReadonlyMap<string, PaymentDirection> | undefined;
  /**
   * The latest version of each transaction, collected from the index rows the reconciliation has
   * just listed; when absent the day's index partition is listed again.
   */
  readonly latest?: LatestVersions;
}

export interface StoreDayReportOutcome {
  /** 'superseded': a build that started later had already written the store-day; nothing was written. */
  readonly status: 'written' | 'superseded';
  readonly counts: StoreDayCounts;
  /** When this build started (the stamp that orders concurrent builds), UTC. */
  readonly generatedAt: string;
}

/** Raw batches downloaded ahead by default. */
const defaultPrefetch = 3;

/**
 * Writes the report files of a reconciled store-day from what the service stores: the day's index
 * partition names the latest version of every transaction and the batch that delivered it; each
 * of those raw batches (the source of truth) is downloaded once, a few ahead of the one being
 * converted, parsed, and dropped once its transactions are in the files. Then the four store-day
 * files are replaced and the partner's store_days file for the date is rewritten.
 */
export class StoreDayReportService {
  constructor(private readonly deps: StoreDayReportDependencies) {}

  async write(day: ReconciledStoreDay, inputs: ReportInputs): Promise<StoreDayReportOutcome> {
    const generatedAt = this.deps.clock().toISOString();
    const { partnerId, storeId, businessDate } = day;
    const latest = inputs.latest ?? (await this.listLatest(partnerId, storeId, businessDate));
    const module = await loadParquetWriter();
    const builder = new StoreDayReportBuilder(module, {
      partnerId,
      storeId,
      businessDate,
      mapping: inputs.mapping,
      paymentDirections: inputs.paymentDirections,
      ...(this.deps.rowGroupRows === undefined ? {} : { rowGroupRows: this.deps.rowGroupRows }),
    });
    await this.convertBatches(partnerId, latest, builder);
    const { files, counts } = builder.finish();

    const status = await this.deps.files.writeStoreDay(partnerId, storeId, businessDate, files, generatedAt);
    if (status === 'written') {
      await this.deps.storeDays.putIfNewer(partnerId, businessDate, storeDayRow(day, counts, generatedAt));
      await this.deps.files.writeStoreDays(partnerId, businessDate, async () =>
        encodeStoreDays(module, partnerId, businessDate, await this.deps.storeDays.list(partnerId, businessDate)),
      );
    }
    return { status, counts, generatedAt };
  }

  /**
   * Rewrites a store-day's files from its stored reconciliation result, the partner's current
   * mapping and payment directions, and the raw batches (history replay, or after a fix).
   * Undefined when the day has no reconciliation result yet (no close, or not yet reconciled).
   */
  async rebuild(partnerId: string, storeId: string, businessDate: string): Promise<StoreDayReportOutcome | undefined> {
    const [record, stored, mapping, paymentDirections] = await Promise.all([
      this.deps.results.get(partnerId, storeId, businessDate),
      this.deps.closes.get(partnerId, storeId, businessDate),
      this.deps.mappings.current(partnerId),
      this.deps.paymentDirections.listForPartner(partnerId),
    ]);
    if (!record || record.status === 'RECEIVED' || !record.actual || !record.checkedAt || !stored) return undefined;
    const day: ReconciledStoreDay = {
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
    return this.write(day, { mapping: mapping.byCode, paymentDirections });
  }

  private async listLatest(partnerId: string, storeId: string, businessDate: string): Promise<LatestVersions> {
    const latest = new LatestVersions();
    for await (const row of this.deps.index.listDay(partnerId, storeId, businessDate)) {
      if (row.type === 'transaction') latest.add(row.summary);
    }
    return latest;
  }

  /** Feeds the builder batch by batch, in batch_seq order, with a few downloads running ahead. */
  private async convertBatches(partnerId: string, latest: LatestVersions, builder: StoreDayReportBuilder): Promise<void> {
    const batches = latest.batches();
    const prefetch = this.deps.prefetch ?? defaultPrefetch;
    const downloads = new Map<number, Promise<Buffer | undefined>>();
    const start = (i: number) => {
      const batch = batches[i];
      if (batch === undefined || downloads.has(i)) return;
      const download = this.deps.rawBatches.get(partnerId, batch.batch_id);
      // Awaited in order below; this only keeps a download abandoned by an earlier failure from
      // reporting an unhandled rejection.
      download.catch(() => undefined);
      downloads.set(i, download);
    };
    let found = 0;
    try {
      for (const [i, batch] of batches.entries()) {
        for (let ahead = 0; ahead <= prefetch; ahead++) start(i + ahead);
        const body = await downloads.get(i);
        downloads.delete(i);
        if (!body) throw new Error('A raw batch named by the trade-record index is missing from the raw batch store.');
        found += convertBatch(body, batch, builder);
      }
    } finally {
      downloads.clear();
    }
    if (found !== latest.size) {
      throw new Error(`${latest.size - found} transactions named by the trade-record index were not found in their raw batches.`);
    }
  }
}

/** Adds the batch's transactions that are the latest version; returns how many it added. */
function convertBatch(body: Buffer, batch: BatchSelection, builder: StoreDayReportBuilder): number {
  const parsed = parseJsonBody(body);
  if (!parsed.ok) throw new Error('A raw batch named by the trade-record index is not valid JSON.');
  const records = (parsed.value as Partial<TradeRecordBatch>).trade_records;
  if (!Array.isArray(records)) throw new Error('A raw batch named by the trade-record index holds no trade_records.');
  let added = 0;
  for (const [index, record] of records.entries()) {
    const wanted = batch.records.get(record.trade_record_id);
    if (wanted?.version !== record.version || wanted.last_modified_at !== record.last_modified_at) continue;
    builder.add(record, { batch_id: batch.batch_id, batch_seq: batch.batch_seq, index });
    added += 1;
  }
  return added;
}
