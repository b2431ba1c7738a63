import Big from 'big.js';
import { minorUnitDigits } from '../../domain/currency/minorUnitDigits.js';
import type { DailyClose } from '../../domain/model/payloads.js';
import { compareInstants } from '../../domain/reconciliation/compareInstants.js';
import {
  AMOUNT_FIELDS,
  CONTROL_TOTAL_FIELDS,
  type ControlTotalField,
  type ControlTotals,
} from '../../domain/reconciliation/ControlTotals.js';
import { isCalendarDate } from '../../domain/validation/isCalendarDate.js';
import { requireBusinessDate } from './requireDateRange.js';
import { ApiError } from '../../errors/ApiError.js';
import type { Diagnosis } from '../../domain/reconciliation/diagnose.js';
import type { DayBatch } from '../../storage/TradeRecordIndex.js';
import { hqLimits } from '../hqLimits.js';
import { closeTiming, type GridStatus } from './StoreDayGrid.js';
import type { Partners } from '../../services/ports/Partners.js';
import type { StoreRegistrations } from '../../services/ports/StoreRegistrations.js';
import type { StoreMasterData } from '../../services/ports/StoreMasterData.js';
import type { DayCloses } from '../../services/ports/DayCloses.js';
import type { Reconciliations } from '../../services/ports/Reconciliations.js';
import type { TradeRecords } from '../../services/ports/TradeRecords.js';
import { requireKnownPartner } from './requireKnownPartner.js';
import { isRunPending } from '../../services/pendingRuns.js';

export interface ComparisonRow {
  readonly field: ControlTotalField;
  readonly expected: string;
  readonly actual: string;
  /** actual − expected; null when a figure is not a number. */
  readonly difference: string | null;
  readonly differs: boolean;
}

export interface DayBatchBody {
  readonly batch_id: string;
  readonly batch_seq: number;
  readonly received_at: string | null;
  readonly record_count: number;
  readonly after_close: boolean;
  /** Storage refused the batch part-way: it ended FAILED and none of its rows count. */
  readonly failed: boolean;
}

export interface StoreDayDetailBody {
  readonly partner_id: string;
  readonly store_id: string;
  readonly business_date: string;
  readonly status: GridStatus;
  readonly overdue: boolean;
  readonly close_due_at: string;
  readonly checked_at: string | null;
  /**
   * When the run a close or a late batch scheduled for the day is due, while it is awaited; the
   * status and figures are the last run's until it has run. Null when none is awaited.
   */
  readonly next_run_due_at: string | null;
  readonly currency: string | null;
  readonly close: {
    readonly batch_id: string;
    readonly received_at: string;
    readonly closed_at: string;
    readonly batch_count: number;
    readonly currency: string;
  } | null;
  readonly expected: ControlTotals | null;
  readonly actual: ControlTotals | null;
  readonly comparison: ComparisonRow[];
  readonly differences: readonly string[];
  readonly diagnosis: Diagnosis | null;
  readonly batches: DayBatchBody[];
  readonly batches_truncated?: true;
}

/** One store-day for HQ: the close, expected vs actual per control total, the diagnosis, the batches received. */
export class StoreDayDetail {
  constructor(
    private readonly partners: Partners,
    private readonly registrations: StoreRegistrations,
    private readonly stores: StoreMasterData,
    private readonly closes: DayCloses,
    private readonly results: Reconciliations,
    private readonly index: TradeRecords,
    private readonly clock: () => Date,
  ) {}

  async get(partnerId: string, storeId: string, businessDate: string): Promise<StoreDayDetailBody> {
    if (!isCalendarDate(businessDate)) {
      throw new ApiError('INVALID_QUERY', undefined, [{ path: '/business_date', message: 'must be a calendar date YYYY-MM-DD' }]);
    }
    requireBusinessDate(businessDate, this.clock(), '/business_date');
    await requireKnownPartner(this.partners, partnerId);
    const registration = await this.registrations.getRegistration(partnerId, storeId);
    if (!registration) throw new ApiError('STORE_NOT_FOUND');
    const [store, stored, record, batchRows] = await Promise.all([
      this.stores.get(partnerId, storeId),
      this.closes.get(partnerId, storeId, businessDate),
      this.results.get(partnerId, storeId, businessDate),
      this.index.listDayBatches(partnerId, storeId, businessDate, hqLimits.maxDayBatches),
    ]);
    // The reconciliation row is what the partner API reports; the close row may be newer for a
    // moment (it is written first), so the status and figures come from the reconciliation row.
    const status: GridStatus = record?.status ?? 'NOT_RECEIVED';
    const reconciled = record !== undefined && record.status !== 'RECEIVED';
    // The day's amounts are in its close's currency; the store's may have changed since.
    const currency = stored?.close.currency ?? store?.currency ?? null;
    const truncated = batchRows.length > hqLimits.maxDayBatches;
    const closeReceivedAt = record?.closeReceivedAt ?? stored?.receivedAt;
    const now = this.clock();
    const { close_due_at, overdue } = closeTiming(businessDate, store, registration, record !== undefined, now);
    const nextRun = record !== undefined && isRunPending(record.pendingRun, now) ? record.pendingRun : null;
    return {
      partner_id: partnerId,
      store_id: storeId,
      business_date: businessDate,
      status,
      close_due_at,
      overdue,
      checked_at: reconciled ? record.checkedAt : null,
      next_run_due_at: nextRun?.dueAt ?? null,
      currency,
      close: stored ? closeBody(stored.close, stored.receivedAt) : null,
      expected: record?.expected ?? null,
      actual: reconciled ? record.actual : null,
      comparison: reconciled && record.actual ? compareRows(record.expected, record.actual, record.differences, currency) : [],
      differences: reconciled ? record.differences : [],
      diagnosis: reconciled ? record.diagnosis : null,
      batches: batchRows
        .slice(0, hqLimits.maxDayBatches)
        .sort((a, b) => a.batchSeq - b.batchSeq || a.receivedAt.localeCompare(b.receivedAt))
        .map((b) => batchBody(b, closeReceivedAt)),
      ...(truncated ? { batches_truncated: true as const } : {}),
    };
  }
}

function closeBody(close: DailyClose, receivedAt: string): NonNullable<StoreDayDetailBody['close']> {
  return {
    batch_id: close.batch_id,
    received_at: receivedAt,
    closed_at: close.closed_at,
    batch_count: close.batch_count,
    currency: close.currency,
  };
}

function batchBody(batch: DayBatch, closeReceivedAt: string | undefined): DayBatchBody {
  let afterClose = false;
  if (batch.receivedAt && closeReceivedAt) {
    try {
      afterClose = compareInstants(batch.receivedAt, closeReceivedAt) > 0;
    } catch {
      afterClose = false;
    }
  }
  return {
    batch_id: batch.batchId,
    batch_seq: batch.batchSeq,
    received_at: batch.receivedAt || null,
    record_count: batch.recordCount,
    after_close: afterClose,
    failed: batch.failed === true,
  };
}

const amountFields: ReadonlySet<ControlTotalField> = new Set(AMOUNT_FIELDS);

function compareRows(
  expected: ControlTotals,
  actual: ControlTotals,
  differences: readonly string[],
  currency: string | null,
): ComparisonRow[] {
  const digits = currency === null ? undefined : minorUnitDigits(currency);
  return CONTROL_TOTAL_FIELDS.map((field) => {
    const e = String(expected[field]);
    const a = String(actual[field]);
    let difference: string | null = null;
    try {
      const delta = new Big(a).minus(new Big(e));
      difference = amountFields.has(field) && digits !== undefined ? delta.toFixed(digits) : delta.toFixed();
    } catch {
      difference = null;
    }
    return { field, expected: e, actual: a, difference, differs: differences.includes(field) };
  });
}
