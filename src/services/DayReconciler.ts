import { compareTotals } from '../domain/reconciliation/compareTotals.js';
import type { ControlTotals } from '../domain/reconciliation/ControlTotals.js';
import { DayAggregator, type DayDiagnostics } from '../domain/reconciliation/DayAggregator.js';
import { diagnose, type ReceivedBatch } from '../domain/reconciliation/diagnose.js';
import type { PaymentDirection } from '../domain/reconciliation/paymentDirection.js';
import { describeError } from '../observability/describeError.js';
import { noTelemetry, type Telemetry } from '../observability/Telemetry.js';
import type { QueueLog } from '../queue/createQueueHandler.js';
import { LatestVersions } from '../reports/LatestVersions.js';
import type { ReconciledStoreDay } from '../reports/ReconciledStoreDay.js';
import type { StoredClose } from '../storage/DayCloseRepository.js';
import type { RowReadAhead } from '../storage/RowReadAhead.js';
import type { Clock } from './ports/Clock.js';
import type { DayCloses } from './ports/DayCloses.js';
import type { PaymentDirections } from './ports/PaymentDirections.js';
import type { Reconciliations } from './ports/Reconciliations.js';
import type { TradeRecords } from './ports/TradeRecords.js';
import type { UnmappedCodes } from './ports/UnmappedCodes.js';
import type { UsedPaymentTypes } from './ports/UsedPaymentTypes.js';
import type { ReconciliationRecord } from '../storage/ReconciliationRepository.js';
import type { MappingCatalog } from './catalog/MappingCatalog.js';
import { maxNotedPaymentTypes } from './maxNotedPaymentTypes.js';
import { controlTotalsOf } from '../domain/reconciliation/controlTotalsOf.js';
import { ReconcileInputsChangingError } from './ReconcileInputsChangingError.js';
import type { ReconcileMessage } from './ReconcileMessage.js';
import { classifyReportError } from './reports/classifyReportError.js';
import { RerunNotes } from './reruns/RerunNotes.js';
import { StartedListing } from './StartedListing.js';
import type { StoreDayReportService } from './reports/StoreDayReportService.js';

export interface DayReconcilerDependencies {
  readonly closes: DayCloses;
  readonly index: TradeRecords;
  readonly results: Reconciliations;
  readonly mappings: MappingCatalog;
  readonly paymentDirections: PaymentDirections;
  readonly unmappedUsage: UnmappedCodes;
  readonly paymentTypeUsage: UsedPaymentTypes;
  readonly clock: Clock;
  /** Told of every stored result, after it is stored (the partner's webhook events). */
  readonly events: { resultStored(record: ReconciliationRecord): Promise<void> };
  /** Writes the day's report files after each result; absent, no files are written. */
  readonly reports?: Pick<StoreDayReportService, 'write' | 'prefetch' | 'rebuild'> | undefined;
}

/**
 * `superseded`: the run stored nothing, as its close was superseded, a run started after it stored
 * its result, or a copy of the same run (the same message run side by side) stored first.
 */
export type ReconcileOutcome = 'superseded' | 'MATCHED' | 'MISMATCHED';

/** Runs of one message while the mapping or payment directions keep changing, before it is retried. */
const maxPasses = 3;

/**
 * Reconciles one store-day against the close a message names (contract §2.12, DESIGN §6).
 * Safe to run any number of times: it recomputes from the index and writes the result only
 * while that close is still the one in effect. The day's partition is read once, a page at a
 * time, into running totals.
 */
export class DayReconciler {
  private readonly rerunNotes: RerunNotes;

  constructor(private readonly deps: DayReconcilerDependencies) {
    this.rerunNotes = new RerunNotes(deps.unmappedUsage, deps.paymentTypeUsage);
  }

  async reconcile(message: ReconcileMessage, telemetry: Telemetry = noTelemetry, log: QueueLog = silent): Promise<ReconcileOutcome> {
    const { partnerId, storeId, businessDate, closeBatchId } = message;
    const readInputs = () => Promise.all([this.deps.mappings.current(partnerId), this.deps.paymentDirections.listForPartner(partnerId)]);
    // The first pass's mapping and payment directions are read alongside the close; a superseded
    // message leaves them unused.
    const firstInputs = readInputs();
    firstInputs.catch(() => undefined);
    // The day's row is read alongside the close too: a named run's retry check reads it, and the
    // run's start is written on it without a read of its own.
    const dayRow = this.deps.results.readAhead?.(partnerId, storeId, businessDate);
    const stored = await this.deps.closes.get(partnerId, storeId, businessDate);
    if (stored?.close.batch_id !== closeBatchId) return 'superseded';
    if (message.runId !== undefined) {
      // A retry of a run that stored its result but may not have published it: publish that
      // result again, with the same event ids, rather than compute a new one.
      const existing = await this.deps.results.get(partnerId, storeId, businessDate, dayRow);
      if (existing && existing.status !== 'RECEIVED' && existing.runId === message.runId && existing.closeBatchId === closeBatchId) {
        await this.deps.events.resultStored(existing);
        // The run may also have failed writing the day's files: they are written from that result.
        // (Files already written are only stamped again: their content has not changed.)
        const reports = this.deps.reports;
        const filesWritten = reports
          ? await this.writeReport(() => reports.rebuild(partnerId, storeId, businessDate), message, telemetry, log)
          : true;
        await this.forgetRerunNotes(message, filesWritten, log);
        return existing.status;
      }
    }
    // Numbered before the day is listed: a run started later lists it later, so once one has stored
    // its result, this one's is not stored over it. A named run is no longer pending from here on:
    // a batch committed for the day from now on may not be read by this run, and schedules another.
    const runNumber = await this.deps.results.startRun(partnerId, storeId, businessDate, message.runId, dayRow);

    for (let pass = 1; ; pass += 1) {
      // The day is listed while the mapping and payment directions are read (they decide how rows
      // are counted, not which rows there are): its first page is requested now.
      const rows = new StartedListing(this.deps.index.listDay(partnerId, storeId, businessDate));
      // The day's batches are listed first: their fragments download while the transactions are listed.
      const fragments = this.deps.reports?.prefetch(partnerId);
      // The result's row is read while the day is listed; its write is still guarded by the row's ETag.
      const resultRow = this.deps.results.readAhead?.(partnerId, storeId, businessDate);
      let mapping: Awaited<typeof firstInputs>[0];
      let directions: Awaited<typeof firstInputs>[1];
      try {
        [mapping, directions] = await (pass === 1 ? firstInputs : readInputs());
      } catch (error) {
        await rows.close();
        throw error;
      }
      const aggregator = new DayAggregator({ currency: stored.close.currency, mapping: mapping.byCode, paymentDirections: directions });
      const batches: ReceivedBatch[] = [];
      // The latest versions are noted while the rows go by, so the report needs no second listing.
      const latest = this.deps.reports ? new LatestVersions() : undefined;
      // A listing meets every batch row before any transaction row, so a failed batch is known
      // before its rows (if any are left) come by: they are never counted, nor put in the files.
      const failed = new Set<string>();
      for await (const row of rows) {
        if (row.type === 'transaction') {
          if (failed.has(row.summary.batch_id)) continue;
          aggregator.add(row.summary);
          latest?.add(row.summary);
        } else if (row.batch.failed === true) {
          failed.add(row.batch.batchId);
        } else {
          batches.push({ batch_seq: row.batch.batchSeq, received_at: row.batch.receivedAt || null });
          fragments?.want(row.batch.batchId);
        }
      }
      const { actual, diagnostics } = aggregator.result();
      if (await this.changedWhileNoting(message, diagnostics, mapping.batchId, directions)) {
        if (pass < maxPasses) continue;
        throw new ReconcileInputsChangingError(maxPasses);
      }
      const saved = await this.save(message, runNumber, stored, actual, diagnostics, batches, telemetry, resultRow);
      if (saved === 'superseded') return saved;
      const reports = this.deps.reports;
      const filesWritten =
        reports && latest
          ? this.writeReport(
              () =>
                reports.write(saved.day, {
                  mapping: mapping.byCode,
                  paymentDirections: directions,
                  latest,
                  notedUnmapped: new Set(diagnostics.unmapped_transaction_types.keys()),
                  ...(fragments ? { fragments } : {}),
                }),
              message,
              telemetry,
              log,
            )
          : Promise.resolve(true);
      // The result's events and the day's files both follow from the stored result, not from each
      // other: they are sent side by side. A crash or failure of either leaves the message to be
      // retried, and the retry publishes the stored result and writes the files (above); both are
      // the same again when repeated.
      await settleBoth(this.deps.events.resultStored(saved.record), filesWritten);
      await this.forgetRerunNotes(message, await filesWritten, log);
      return saved.status;
    }
  }

  /**
   * Notes the day's unmapped codes and partner payment types: a mapping upload schedules the days
   * it finds noted with a code it maps, and a direction HQ sets the days noted with its type. Each
   * looks only after storing its change, so one stored after this run read its inputs may have
   * looked before these notes: then this run is the one that must use the new inputs (true).
   * Built-in payment types are never noted: a registration does not change their direction.
   */
  private async changedWhileNoting(
    { partnerId, storeId, businessDate }: ReconcileMessage,
    diagnostics: DayDiagnostics,
    mappingBatchId: string | null,
    directions: ReadonlyMap<string, PaymentDirection>,
  ): Promise<boolean> {
    const unmapped = diagnostics.unmapped_transaction_types;
    // Unknown types first: they are the ones HQ is asked (by the diagnosis) to give a direction.
    const paymentTypes = [...diagnostics.unknown_payment_types.keys(), ...diagnostics.registered_payment_types].slice(
      0,
      maxNotedPaymentTypes,
    );
    const [mappingNow, directionsNow] = await Promise.all([
      unmapped.size > 0
        ? this.deps.unmappedUsage
            .record(partnerId, storeId, businessDate, unmapped.keys())
            .then(() => this.deps.mappings.current(partnerId))
        : undefined,
      paymentTypes.length > 0
        ? this.deps.paymentTypeUsage
            .record(partnerId, storeId, businessDate, paymentTypes)
            .then(() => this.deps.paymentDirections.listForPartner(partnerId))
        : undefined,
    ]);
    return (
      (mappingNow !== undefined && mappingNow.batchId !== mappingBatchId) ||
      (directionsNow !== undefined && paymentTypes.some((type) => directionsNow.get(type) !== directions.get(type)))
    );
  }

  /**
   * Writes the day's report files from a stored result. A permanent failure (a value the files
   * cannot hold, stored data that disagrees with itself) is logged with its code and not retried:
   * the result stands, and `hq reports rebuild` writes the files once the cause is fixed. A
   * transient one fails the message, which the host retries a bounded number of times, and the
   * retry writes the files (a run with an id of its own finds its result stored and writes them
   * from it).
   */
  private async writeReport(write: () => Promise<unknown>, day: ReconcileMessage, telemetry: Telemetry, log: QueueLog): Promise<boolean> {
    try {
      await write();
      return true;
    } catch (error) {
      const failure = classifyReportError(error);
      if (!failure.permanent) throw error;
      // Nothing retries it, and BI reads the day's earlier files (or none) meanwhile: HQ is told.
      const { partnerId: partner, storeId: store, businessDate } = day;
      telemetry.metric('report_unwritten', 1, { partner, store, business_date: businessDate, code: failure.code });
      log.warn(`${failure.code}: the report files of the store-day were not written: ${failure.message}`);
      return false;
    }
  }

  /**
   * Forgets the notes a rerun scheduled this run for, once its result is stored and published.
   * The run noted again what the day still uses (a code still unmapped, a payment type), so those
   * notes have new etags and stay. An unmapped code's note stays too while the day's files were not
   * written: their row still holds the code back, and HQ's unmapped view finds it by the note.
   * Failing to forget only leaves a day for the next change to run again: it is logged, and the
   * message, whose work is done, is not failed for it.
   */
  private async forgetRerunNotes(message: ReconcileMessage, filesWritten: boolean, log: QueueLog): Promise<void> {
    const notes = (message.rerunNotes ?? []).filter((note) => filesWritten || note.kind !== 'unmapped');
    if (notes.length === 0) return;
    try {
      await this.rerunNotes.forget(message.partnerId, message.storeId, message.businessDate, notes);
    } catch (error) {
      log.warn(`the store-day's rerun notes were not forgotten (a later change runs it again): ${describeError(error)}`);
    }
  }

  private async save(
    message: ReconcileMessage,
    runNumber: number,
    stored: StoredClose,
    actual: ControlTotals,
    diagnostics: DayDiagnostics,
    batches: readonly ReceivedBatch[],
    telemetry: Telemetry,
    resultRow: RowReadAhead | undefined,
  ): Promise<SavedResult | 'superseded'> {
    const { partnerId, storeId, businessDate, closeBatchId } = message;
    const expected = controlTotalsOf(stored.close);
    const { status, differences } = compareTotals(expected, actual, stored.close.currency);
    const diagnosis = diagnose({
      batch_count: stored.close.batch_count,
      batches,
      close_received_at: stored.receivedAt,
      unmapped_transaction_types: diagnostics.unmapped_transaction_types,
      unknown_payment_types: diagnostics.unknown_payment_types,
      other_currency_trade_record_count: diagnostics.other_currency_trade_record_count,
      differences,
      tax_and_tip: { expected, actual, non_revenue: diagnostics.non_revenue },
    });
    const checkedAt = this.deps.clock();
    const saved = await this.deps.results.saveResult(
      partnerId,
      storeId,
      businessDate,
      closeBatchId,
      {
        status,
        checkedAt: checkedAt.toISOString(),
        actual,
        differences,
        diagnosis,
        runId: message.runId,
        runNumber,
      },
      resultRow,
    );
    if (!saved) return 'superseded';
    const day = { partner: partnerId, store: storeId, business_date: businessDate };
    const due = Date.parse(message.dueAt ?? stored.receivedAt);
    telemetry.metric('reconciliation_lag_seconds', Math.max(0, Math.round((checkedAt.getTime() - due) / 1000)), day);
    if (status === 'MISMATCHED') telemetry.metric('reconciliation_mismatched', 1, { ...day, changed: String(saved.changed) });
    return {
      status,
      record: saved,
      day: {
        partnerId,
        storeId,
        businessDate,
        status,
        currency: stored.close.currency,
        expected,
        actual,
        differences,
        reconciledAt: checkedAt.toISOString(),
        closeBatchId,
        runNumber,
      },
    };
  }
}

interface SavedResult {
  readonly status: 'MATCHED' | 'MISMATCHED';
  /** As stored: what its events are published from (after it is stored). */
  readonly record: ReconciliationRecord;
  readonly day: ReconciledStoreDay;
}

/** Waits for both, then throws the first one's failure, if any (neither is left running). */
async function settleBoth(first: Promise<unknown>, second: Promise<unknown>): Promise<void> {
  const outcomes = await Promise.allSettled([first, second]);
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

const silent: QueueLog = { warn: () => undefined };
