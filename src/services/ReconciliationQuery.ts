import { ApiError } from '../errors/ApiError.js';
import { isCalendarDate } from '../domain/validation/isCalendarDate.js';
import type { ControlTotals } from '../domain/reconciliation/ControlTotals.js';
import type { Diagnosis } from '../domain/reconciliation/diagnose.js';
import { isRunPending } from './pendingRuns.js';
import type { Reconciliations } from './ports/Reconciliations.js';
import type { ReconciliationRecord } from '../storage/ReconciliationRepository.js';
import type { TenantGuard } from './TenantGuard.js';

/** GET /daily-close/{store_id}/{business_date} body: contract §2.12 plus the additive `diagnosis`. */
export interface ReconciliationResultBody {
  readonly store_id: string;
  readonly business_date: string;
  readonly status: 'NOT_RECEIVED' | 'RECEIVED' | 'MATCHED' | 'MISMATCHED';
  readonly checked_at: string | null;
  readonly expected: ControlTotals | null;
  readonly actual: ControlTotals | null;
  readonly differences: readonly string[];
  /** Beyond the contract: why the figures differ and what to resend; null until reconciled. */
  readonly diagnosis: Diagnosis | null;
}

/** Reads a store-day's reconciliation state for the partner that owns the store (GET /daily-close/...). */
export class ReconciliationQuery {
  constructor(
    private readonly tenants: TenantGuard,
    private readonly results: Reconciliations,
    private readonly clock: () => Date,
  ) {}

  async get(partnerId: string, storeId: string, businessDate: string): Promise<ReconciliationResultBody> {
    if (!isCalendarDate(businessDate)) {
      throw new ApiError('INVALID_PAYLOAD', 'business_date must be a calendar date YYYY-MM-DD.', [
        { path: '/business_date', message: 'must be a calendar date YYYY-MM-DD' },
      ]);
    }
    // A retired store's past days stay readable: only what is sent for it is refused.
    await this.tenants.requireReadable(partnerId, storeId);
    const record = await this.results.get(partnerId, storeId, businessDate);
    // A batch committed after the day's result noted a run that has not started: the stored result
    // does not count that batch, so the day reads RECEIVED (contract §3: reconciliation not
    // finished) until the run stores its result. A partner polling after a late batch then waits
    // for the result that counts it, instead of taking the one before it for the answer.
    const awaitingRun = record !== undefined && isRunPending(record.pendingRun, this.clock());
    return toResultBody(storeId, businessDate, awaitingRun ? { ...record, status: 'RECEIVED' } : record);
  }
}

/** The GET body of a store-day's stored state; also the `data` of every reconciliation event. */
export function toResultBody(storeId: string, businessDate: string, record: ReconciliationRecord | undefined): ReconciliationResultBody {
  if (!record) {
    return {
      store_id: storeId,
      business_date: businessDate,
      status: 'NOT_RECEIVED',
      checked_at: null,
      expected: null,
      actual: null,
      differences: [],
      diagnosis: null,
    };
  }
  return {
    store_id: storeId,
    business_date: businessDate,
    status: record.status,
    checked_at: record.status === 'RECEIVED' ? null : record.checkedAt,
    expected: record.expected,
    actual: record.status === 'RECEIVED' ? null : record.actual,
    differences: record.status === 'RECEIVED' ? [] : record.differences,
    diagnosis: record.status === 'RECEIVED' ? null : record.diagnosis,
  };
}
