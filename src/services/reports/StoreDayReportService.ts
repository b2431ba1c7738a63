import { setImmediate as nextTurn } from 'node:timers/promises';
import { paymentDirection, type PaymentDirection } from '../../domain/reconciliation/paymentDirection.js';
import { buildReportFragment } from '../../reports/buildReportFragment.js';
import { controlTotalValues, encodeStoreDays } from '../../reports/encodeStoreDays.js';
import { LatestVersions, type BatchSelection } from '../../reports/LatestVersions.js';
import { loadParquetFooterEncoder, loadParquetWriter, type ParquetWriterModule } from '../../reports/loadParquetWriter.js';
import { ParquetFileAssembly } from '../../reports/ParquetFileAssembly.js';
import type { ParquetFooterEncoder } from '../../reports/ParquetFooterEncoder.js';
import { storeDayRow, type ReconciledStoreDay } from '../../reports/ReconciledStoreDay.js';
import { AMOUNT_PRECISION, AMOUNT_SCALE, reportColumns } from '../../reports/reportColumns.js';
import { toScaledInteger } from '../../reports/toScaledInteger.js';
import type { ControlTotals } from '../../domain/reconciliation/ControlTotals.js';
import { storeDayDatasets, type StoreDayDataset } from '../../reports/reportDatasets.js';
import { decodeFragment, encodeFragment, type ReportFragment } from '../../reports/ReportFragment.js';
import { ReportSourceError } from '../../reports/ReportSourceError.js';
import type { StoreDayCounts } from '../../reports/StoreDayReportBuilder.js';
import { SalesAccumulator, type StoreDaySales } from '../../reports/StoreDaySales.js';
import { storeDayFilesId } from '../../reports/storeDayFilesId.js';
import type { StoreDayWrite } from '../../storage/ReportStore.js';
import type { MappingCatalog } from '../catalog/MappingCatalog.js';
import type { Clock } from '../ports/Clock.js';
import type { DayCloses } from '../ports/DayCloses.js';
import type { PaymentDirections } from '../ports/PaymentDirections.js';
import type { RawBatches } from '../ports/RawBatches.js';
import type { Reconciliations } from '../ports/Reconciliations.js';
import type { ReportFiles, StoreDayFiles } from '../ports/ReportFiles.js';
import type { ReportFragments } from '../ports/ReportFragments.js';
import type { ReportStoreDays } from '../ports/ReportStoreDays.js';
import type { TradeRecords } from '../ports/TradeRecords.js';
import type { UnmappedCodes } from '../ports/UnmappedCodes.js';
import { FragmentPrefetch } from './FragmentPrefetch.js';
import type { StoreDaysRewrites } from './StoreDaysRewrites.js';
import { buildStamp } from '../../reports/buildStamp.js';
import { isRunPending } from '../pendingRuns.js';
import type { ReconciliationRecord } from '../../storage/ReconciliationRepository.js';

export interface StoreDayReportDependencies {
  readonly index: Pick<TradeRecords, 'listDay'>;
  readonly rawBatches: Pick<RawBatches, 'get'>;
  readonly files: ReportFiles;
  readonly fragments: Pick<ReportFragments, 'get' | 'put'>;
  readonly storeDays: Pick<ReportStoreDays, 'putIfNewer' | 'list' | 'readAhead'>;
  /** Coordinates the rewrites of a partner-date's store_days file among the stores reconciled at once. */
  readonly storeDaysRewrites: Pick<StoreDaysRewrites, 'afterRowWritten'>;
  /** What a rebuild reads the reconciliation outcome and its inputs from. */
  readonly results: Pick<Reconciliations, 'get'>;
  readonly closes: Pick<DayCloses, 'get'>;
  readonly mappings: Pick<MappingCatalog, 'current'>;
  readonly paymentDirections: Pick<PaymentDirections, 'listForPartner'>;
  /** Where the codes a row holds back are noted: the unmapped view reads only the days noted there. */
  readonly unmappedCodes: Pick<UnmappedCodes, 'record'>;
  readonly clock: Clock;
  /** Fragments (or raw batches) downloaded ahead of the one being used (memory: this many at most, plus one). */
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
  /** Fragment downloads started while the day was listed. */
  readonly fragments?: FragmentPrefetch;
  /** Codes the reconciliation has just noted for the day: the row's other held-back codes are noted here. */
  readonly notedUnmapped?: ReadonlySet<string>;
}

export interface StoreDayReportOutcome {
  /** 'superseded': a later build (buildStamp) had already written the store-day; nothing was written. */
  readonly status: 'written' | 'superseded';
  readonly counts: StoreDayCounts;
  /** When this build started, UTC (with the run number, the stamp that orders concurrent builds: buildStamp). */
  readonly generatedAt: string;
  /** Batches whose staged fragment was used as it was, and batches converted from the raw batch now. */
  readonly batches: { readonly staged: number; readonly converted: number };
  /** The totals of the files written, per currency and standard type. */
  readonly sales: StoreDaySales;
}

/**
 * How the files a rebuild wrote stand against the day's reconciliation result:
 * - 'agrees': their revenue (net sales, tax, tips of revenue types) equals the result's `actual`;
 * - 'differs': it does not, though no run is awaited: the mapping changed a code's standard type
 *   since the day was reconciled, so its store_days row and its files disagree until it is
 *   reconciled again;
 * - 'run-due': a run a close or a late batch scheduled is awaited (due at `runDueAt`), whose result
 *   will follow what the files hold; not compared;
 * - 'not-written': a later build had written the day; nothing was compared.
 */
export type RebuildCheck =
  { readonly kind: 'agrees' | 'differs' | 'not-written' } | { readonly kind: 'run-due'; readonly runDueAt: string };

/** What a rebuild did, and how its files stand against the day's reconciliation result. */
export interface StoreDayRebuild extends StoreDayReportOutcome {
  readonly check: RebuildCheck;
}

/** A store-day's files as built, with what the store-day's row says of them. */
interface BuiltStoreDay {
  readonly module: ParquetWriterModule;
  readonly files: StoreDayFiles;
  /** What every file's footer and the store-day's row name the set by (storeDayFilesId). */
  readonly filesId: string;
  readonly counts: StoreDayCounts;
  readonly sales: StoreDaySales;
  readonly staged: number;
  readonly converted: number;
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

  /** Starts fragment downloads for a day being listed; hand the result to {@link write}. */
  prefetch(partnerId: string): FragmentPrefetch {
    return new FragmentPrefetch(partnerId, this.deps.fragments);
  }

  async write(day: ReconciledStoreDay, inputs: ReportInputs): Promise<StoreDayReportOutcome> {
    // The day's row must fit the date's store_days file before anything of the day is written: a
    // row that does not would leave its files without a row, and fail that file for every store.
    controlTotalValues(day, 'the store-day');
    const generatedAt = this.deps.clock().toISOString();
    const stamp = buildStamp(day.runNumber, generatedAt);
    const { partnerId, storeId, businessDate } = day;
    // The store-day's row is read while the files are built and written; it is written after them.
    const rowRead = this.deps.storeDays.readAhead?.(partnerId, businessDate, storeId);
    // The files are built while the store-day is made ready to write (its lease, its files' state).
    const building = this.build(partnerId, storeId, businessDate, inputs);
    const afterFiles = async (): Promise<void> => {
      const { module, counts, sales, filesId } = await building;
      const row = storeDayRow(day, { counts, sales, generatedAt, filesId });
      // Noted before the row is written, so that no row ever holds back a code the unmapped view
      // cannot find. A rebuild uses the mapping in effect now, which may no longer map a code the
      // day's reconciliation mapped; a day with more codes than a row keeps was noted with those
      // its reconciliation met first. Neither is noted by the reconciliation.
      const unnoted = new Set(
        row.sales.unmapped.map((held) => held.source_transaction_type).filter((code) => !inputs.notedUnmapped?.has(code)),
      );
      if (unnoted.size > 0) await this.deps.unmappedCodes.record(partnerId, storeId, businessDate, unnoted);
      await this.deps.storeDays.putIfNewer(partnerId, businessDate, row, stamp, rowRead);
      // One writer at a time rewrites the date's file for every store whose row is written by then.
      await this.deps.storeDaysRewrites.afterRowWritten(partnerId, businessDate, () =>
        this.deps.files.writeStoreDays(partnerId, businessDate, async () =>
          encodeStoreDays(module, partnerId, businessDate, await this.deps.storeDays.list(partnerId, businessDate)),
        ),
      );
    };
    let status: StoreDayWrite;
    try {
      status = await this.deps.files.writeStoreDay(
        partnerId,
        storeId,
        businessDate,
        building.then((built) => built.files),
        stamp,
        afterFiles,
      );
    } catch (error) {
      // Not left running after the write gave up.
      await building.catch(() => undefined);
      throw error;
    }
    const { counts, staged, converted, sales } = await building;
    return { status, counts, generatedAt, batches: { staged, converted }, sales };
  }

  /** The day's files, from each batch's fragment in turn, with the counts and totals of what they hold. */
  private async build(partnerId: string, storeId: string, businessDate: string, inputs: ReportInputs): Promise<BuiltStoreDay> {
    const latest = inputs.latest ?? (await this.listLatest(partnerId, storeId, businessDate));
    const [module, footer] = await Promise.all([loadParquetWriter(), loadParquetFooterEncoder()]);
    const assemblies = Object.fromEntries(
      storeDayDatasets.map((dataset) => [dataset, new ParquetFileAssembly(footer, dataset, reportColumns[dataset])]),
    ) as Record<StoreDayDataset, ParquetFileAssembly>;
    const counts = Object.fromEntries(storeDayDatasets.map((dataset) => [dataset, 0])) as Record<StoreDayDataset, number>;
    const sales = new SalesAccumulator();
    // Each fragment goes into the files as it comes and is let go: a day's fragments are never all held at once.
    const { staged, converted } = await this.collectFragments({ module, footer }, partnerId, latest, inputs, (fragment) => {
      for (const dataset of storeDayDatasets) {
        const part = fragment.parts[dataset];
        if (part) assemblies[dataset].append(part);
        counts[dataset] += fragment.counts[dataset];
      }
      sales.merge(fragment.sales);
    });
    const filesId = storeDayFilesId(storeDayDatasets.map((dataset) => assemblies[dataset]));
    const files = Object.fromEntries(storeDayDatasets.map((dataset) => [dataset, assemblies[dataset].finish(filesId)])) as Record<
      StoreDayDataset,
      Uint8Array[] | undefined
    >;
    return { module, files, filesId, counts, sales: sales.result(), staged, converted };
  }

  /**
   * Rewrites a store-day's files from its stored reconciliation result, the partner's current
   * mapping and payment directions, and the raw batches (history replay, or after a fix).
   * Undefined when the day has no reconciliation result yet (no close, or not yet reconciled).
   */
  async rebuild(partnerId: string, storeId: string, businessDate: string): Promise<StoreDayRebuild | undefined> {
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
      runNumber: record.runNumber ?? 0,
    };
    const outcome = await this.write(day, { mapping: mapping.byCode, paymentDirections });
    return { ...outcome, check: this.checkAgainstResult(outcome, record, day.currency) };
  }

  private checkAgainstResult(outcome: StoreDayReportOutcome, record: ReconciliationRecord, currency: string): RebuildCheck {
    if (outcome.status !== 'written' || !record.actual) return { kind: 'not-written' };
    if (record.pendingRun && isRunPending(record.pendingRun, this.deps.clock()))
      return { kind: 'run-due', runDueAt: record.pendingRun.dueAt };
    return { kind: revenueAgrees(outcome.sales, currency, record.actual) ? 'agrees' : 'differs' };
  }

  private async listLatest(partnerId: string, storeId: string, businessDate: string): Promise<LatestVersions> {
    const latest = new LatestVersions();
    // Batch rows come first: a failed batch's rows, if any are left, never reach the files.
    const failed = new Set<string>();
    for await (const row of this.deps.index.listDay(partnerId, storeId, businessDate)) {
      if (row.type === 'batch') {
        if (row.batch.failed === true) failed.add(row.batch.batchId);
      } else if (!failed.has(row.summary.batch_id)) latest.add(row.summary);
    }
    return latest;
  }

  /**
   * The fragment of every batch that delivers a latest version, in batch_seq order. A staged
   * fragment is used when it holds exactly the batch's latest versions and was built with the
   * mapping and payment directions in effect now; any other batch (a version superseded since,
   * a code mapped since, no fragment staged yet) is converted from its raw batch, and a fragment
   * of the whole batch is staged for the next time. A few downloads run ahead of the one in use;
   * each fragment is handed to `use` in turn and not kept.
   */
  private async collectFragments(
    parquet: { readonly module: ParquetWriterModule; readonly footer: ParquetFooterEncoder },
    partnerId: string,
    latest: LatestVersions,
    inputs: ReportInputs,
    use: (fragment: ReportFragment) => void,
  ): Promise<{ staged: number; converted: number }> {
    const batches = latest.batches();
    const prefetch = this.deps.prefetch ?? defaultPrefetch;
    const directions = inputs.paymentDirections ?? new Map<string, PaymentDirection>();
    const context = {
      partnerId,
      mapping: inputs.mapping,
      paymentDirections: directions,
      ...(this.deps.rowGroupRows === undefined ? {} : { rowGroupRows: this.deps.rowGroupRows }),
    };
    const downloads = new Map<number, Promise<ReportFragment | undefined>>();
    const start = (i: number) => {
      const batch = batches[i];
      if (batch === undefined || downloads.has(i)) return;
      const download =
        inputs.fragments?.take(batch.batch_id) ??
        this.deps.fragments.get(partnerId, batch.batch_id).then((bytes) => bytes && decodeFragment(bytes));
      // Awaited in order below; this only keeps a download abandoned by an earlier failure from
      // reporting an unhandled rejection.
      download.catch(() => undefined);
      downloads.set(i, download);
    };
    const stagings: Promise<void>[] = [];
    let staged = 0;
    let found = 0;
    try {
      for (const [i, batch] of batches.entries()) {
        // Fragments downloaded ahead are taken without waiting on storage, so building the files
        // would hold the event loop from start to end: the requests sent meanwhile (the lease,
        // the result's events) could not go out, nor their answers be read.
        await nextTurn();
        for (let ahead = 0; ahead <= prefetch; ahead++) start(i + ahead);
        let fragment = await downloads.get(i);
        downloads.delete(i);
        if (fragment && fits(fragment, batch, inputs.mapping, directions)) {
          staged += 1;
        } else {
          const body = await this.deps.rawBatches.get(partnerId, batch.batch_id);
          if (!body) throw new ReportSourceError('A raw batch named by the trade-record index is missing from the raw batch store.');
          const built = buildReportFragment(parquet.module, context, body, batch.records);
          fragment = built.fragment;
          if (built.whole) stagings.push(this.stage(partnerId, fragment, parquet.footer));
        }
        found += fragment.transactions.length;
        use(fragment);
      }
    } finally {
      downloads.clear();
      await Promise.all(stagings);
    }
    if (found !== latest.size) {
      throw new ReportSourceError(
        `${latest.size - found} transactions named by the trade-record index were not found in their raw batches.`,
      );
    }
    return { staged, converted: batches.length - staged };
  }

  /** Stages a fragment converted during a build; a failure only means the next build converts the batch again. */
  private async stage(partnerId: string, fragment: ReportFragment, footer: ParquetFooterEncoder): Promise<void> {
    try {
      await this.deps.fragments.put(partnerId, fragment.batchId, encodeFragment(fragment, footer));
    } catch {
      // The fragment is a cache of the raw batch.
    }
  }
}

/** Whether a staged fragment holds exactly the batch's latest versions, converted as they would be now. */
function fits(
  fragment: ReportFragment,
  batch: BatchSelection,
  mapping: ReadonlyMap<string, string>,
  directions: ReadonlyMap<string, PaymentDirection>,
): boolean {
  if (fragment.batchSeq !== batch.batch_seq || fragment.transactions.length !== batch.records.size) return false;
  for (const [id, version, lastModifiedAt] of fragment.transactions) {
    const wanted = batch.records.get(id);
    if (wanted?.version !== version || wanted.last_modified_at !== lastModifiedAt) return false;
  }
  for (const [code, standard] of fragment.codes) if ((mapping.get(code) ?? null) !== standard) return false;
  for (const [type, direction] of fragment.paymentTypes) if ((paymentDirection(type, directions) ?? null) !== direction) return false;
  return true;
}

/** Whether the files' revenue (net sales, tax and tips of revenue types, in the day's currency) equals the result's. */
function revenueAgrees(sales: StoreDaySales, currency: string, actual: ControlTotals): boolean {
  const revenue = sales.sales.filter((totals) => totals.is_revenue && totals.currency === currency);
  const sum = (field: 'net_sales' | 'tax_amount' | 'tip_amount'): bigint =>
    revenue.reduce((total, totals) => total + BigInt(totals[field]), 0n);
  const scaled = (amount: string): bigint | undefined => toScaledInteger(amount, AMOUNT_SCALE, AMOUNT_PRECISION);
  return (
    sum('net_sales') === scaled(actual.net_sales_amount) &&
    sum('tax_amount') === scaled(actual.tax_amount) &&
    sum('tip_amount') === scaled(actual.tip_amount)
  );
}
