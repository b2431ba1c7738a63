import { compareCodeUnits } from '../domain/compareCodeUnits.js';
import { createStoreDayReportService } from '../services/createStoreDayReportService.js';
import { createMasterDataReports } from '../services/createMasterDataReports.js';
import { classifyReportError } from '../services/reports/classifyReportError.js';
import { isStuckDay } from '../services/isStuckDay.js';
import { partnerDatasets } from '../reports/reportDatasets.js';
import type { ClosedDayReruns } from '../services/reruns/ClosedDayReruns.js';
import type { ReconciliationRepository, ReconciliationStatus } from '../storage/ReconciliationRepository.js';
import type { StorageClients } from '../storage/StorageClients.js';
import type { HqContext, Options } from './HqContext.js';
import { UsageError } from './parseArgs.js';
import { printable } from './printable.js';
import { Refusal } from './Refusal.js';

interface StoreDay {
  readonly partnerId: string;
  readonly storeId: string;
  readonly businessDate: string;
  /** Still RECEIVED with no run to come. */
  readonly stuck: boolean;
}

/** The HQ tool's `reconciliation list|rerun` and `reports rebuild`: what HQ does with reconciled store-days. */
export class ReconciliationCommands {
  constructor(
    private readonly context: HqContext,
    private readonly storage: StorageClients,
    private readonly results: ReconciliationRepository,
    private readonly reruns: ClosedDayReruns,
  ) {}

  async list(options: Options): Promise<void> {
    const status = options.status;
    if (status && !['RECEIVED', 'MATCHED', 'MISMATCHED'].includes(status)) {
      throw new UsageError('--status must be RECEIVED, MATCHED or MISMATCHED');
    }
    const partnerId = options.partner === undefined ? undefined : await this.context.resolvePartner(options.partner);
    const { io } = this.context;
    io.out('partner\tstore\tbusiness_date\tstatus\tchecked_at\tdifferences');
    for await (const r of this.results.list({
      partnerId,
      status: status as ReconciliationStatus | undefined,
      businessDate: options.date,
    })) {
      io.out(
        [r.partnerId, r.storeId, r.businessDate, r.status, r.checkedAt ?? '-', r.differences.join(',') || '-'].map(printable).join('\t'),
      );
    }
  }

  /**
   * Reconciles a partner's reconciled store-days in range again now, through the service's queue,
   * each against its close in effect: after a mapping upload that gave a code already mapped another
   * standard code, or left it out, which reconciles no day by itself. Stuck days in range (still
   * RECEIVED with no run to come: their message was lost) are reconciled too; a day awaiting its
   * close's run is left to it.
   */
  async rerun(typedPartnerId: string, options: Options): Promise<void> {
    const partnerId = await this.context.resolvePartner(typedPartnerId);
    const days = await this.reconciledDays(partnerId, options, this.context.clock());
    const scheduled = await this.reruns.rerunDays(partnerId, days);
    const stuck = days.filter((day) => day.stuck).length;
    this.context.io.out(
      `${scheduled} of ${days.length} reconciled store-day(s) scheduled to reconcile again${stuck > 0 ? ` (${stuck} of them stuck RECEIVED)` : ''}`,
    );
  }

  /**
   * Rewrites the report files of every reconciled store-day in range from the raw batches (history
   * replay, or after a fix), one store-day at a time, with a progress line per store-day. A
   * store-day that fails is reported and skipped; storage failures are tried three times.
   */
  async rebuildReports(options: Options): Promise<void> {
    const { io, clock } = this.context;
    const partner = options.partner === undefined ? undefined : await this.context.resolvePartner(options.partner);
    const days = await this.reconciledDays(partner, options);
    const reports = createStoreDayReportService(this.storage, clock);
    let written = 0;
    let failed = 0;
    let disagreeing = 0;
    for (const [i, day] of days.entries()) {
      let outcome = '';
      for (let attempt = 1; ; attempt += 1) {
        try {
          const result = await reports.rebuild(day.partnerId, day.storeId, day.businessDate);
          outcome = result?.status ?? 'not reconciled';
          if (result?.status === 'written') written += 1;
          if (result?.check.kind === 'differs') {
            disagreeing += 1;
            outcome += '; its sales files differ from its last reconciliation (a code mapped anew): run reconciliation rerun';
          } else if (result?.check.kind === 'run-due') {
            outcome += `; a reconciliation run is due at ${result.check.runDueAt}, whose result will follow these files`;
          }
          break;
        } catch (error) {
          const failure = classifyReportError(error);
          if (!failure.permanent && attempt < 3) continue;
          outcome = `${failure.code}: ${failure.message}`;
          failed += 1;
          break;
        }
      }
      io.err(`[${i + 1}/${days.length}] ${printable(day.partnerId)} ${printable(day.storeId)} ${day.businessDate}: ${printable(outcome)}`);
    }
    const notes = [failed > 0 ? `${failed} failed` : '', disagreeing > 0 ? `${disagreeing} differ from their reconciliation` : ''];
    io.out(
      `${written} of ${days.length} reconciled store-day(s) rewritten${notes
        .filter(Boolean)
        .map((note) => `, ${note}`)
        .join('')}`,
    );
    // The master-data files too, at once rather than at the timer's next run.
    const masterData = createMasterDataReports(this.storage, clock);
    let partnersFailed = 0;
    if (partner === undefined) {
      // An operator's rebuild writes every partner, however long it takes.
      const summary = await masterData.writeAll(Number.POSITIVE_INFINITY);
      partnersFailed = summary.failures.length;
      for (const { partnerId, error } of summary.failures)
        io.err(`master-data files of ${printable(partnerId)}: ${printable(classifyReportError(error).message)}`);
      for (const dataset of partnerDatasets) {
        const { written: files, unchanged, removed } = summary.datasets[dataset];
        io.out(`${dataset} files: ${files} written, ${unchanged} unchanged, ${removed} removed, ${partnersFailed} failed`);
      }
    } else {
      try {
        const outcomes = await masterData.writePartner(partner);
        for (const dataset of partnerDatasets) {
          const outcome = outcomes[dataset];
          io.out(`${dataset} file: ${outcome === 'none' ? `none (the partner has no ${dataset})` : outcome}`);
        }
      } catch (error) {
        partnersFailed = 1;
        io.err(`master-data files of ${printable(partner)}: ${printable(classifyReportError(error).message)}`);
      }
    }
    if (failed > 0) throw new Refusal(`${failed} store-day(s) could not be rewritten (see above)`);
    if (partnersFailed > 0) throw new Refusal(`the master-data files of ${partnersFailed} partner(s) could not be written (see above)`);
  }

  /**
   * The reconciled (MATCHED or MISMATCHED) store-days of one partner or all, by date range, in
   * order; with `stuckAt`, also the days stuck RECEIVED at that time ({@link isStuckDay}). The tool
   * has checked the dates already (checkDateOptions).
   */
  private async reconciledDays(partnerId: string | undefined, { from, to }: Options, stuckAt?: Date): Promise<StoreDay[]> {
    const days: StoreDay[] = [];
    for await (const r of this.results.list({ partnerId, from, to })) {
      const stuck = stuckAt !== undefined && isStuckDay(r, stuckAt);
      if (r.status === 'RECEIVED' && !stuck) continue;
      days.push({ partnerId: r.partnerId, storeId: r.storeId, businessDate: r.businessDate, stuck });
    }
    return days.sort(
      (a, b) =>
        compareCodeUnits(a.partnerId, b.partnerId) ||
        compareCodeUnits(a.businessDate, b.businessDate) ||
        compareCodeUnits(a.storeId, b.storeId),
    );
  }
}
