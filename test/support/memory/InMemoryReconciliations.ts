import { closeComesAfter } from '../../../src/domain/reconciliation/closeComesAfter.js';
import type { ControlTotals } from '../../../src/domain/reconciliation/ControlTotals.js';
import type {
  PendingRun,
  ReconciliationFilter,
  ReconciliationRecord,
  ResultToSave,
} from '../../../src/storage/ReconciliationRepository.js';
import type { Reconciliations } from '../../../src/services/ports/Reconciliations.js';

interface Day {
  record: Omit<ReconciliationRecord, 'pendingRun'>;
  /** Status and figures of the last result, kept across a corrected close. */
  lastOutcome?: string;
  pending?: PendingRun;
  /** Runs started so far, and the number of the run whose result is stored. */
  runsStarted: number;
  resultRunNumber: number;
}

/** Reconciliation states in a map, for unit tests of services. */
export class InMemoryReconciliations implements Reconciliations {
  private readonly days = new Map<string, Day>();

  get(partnerId: string, storeId: string, businessDate: string): Promise<ReconciliationRecord | undefined> {
    const day = this.days.get(key(partnerId, storeId, businessDate));
    return Promise.resolve(day && view(day));
  }

  markReceived(
    partnerId: string,
    storeId: string,
    businessDate: string,
    close: { batchId: string; receivedAt: string; expected: ControlTotals; run?: PendingRun },
  ): Promise<void> {
    const k = key(partnerId, storeId, businessDate);
    const current = this.days.get(k);
    if (current && !closeComesAfter(close, { batchId: current.record.closeBatchId, receivedAt: current.record.closeReceivedAt })) {
      return Promise.resolve();
    }
    this.days.set(k, {
      record: {
        partnerId,
        storeId,
        businessDate,
        status: 'RECEIVED',
        closeBatchId: close.batchId,
        closeReceivedAt: close.receivedAt,
        checkedAt: null,
        expected: close.expected,
        actual: null,
        differences: [],
        diagnosis: null,
        runId: null,
        runNumber: null,
        changed: false,
      },
      ...(current?.lastOutcome === undefined ? {} : { lastOutcome: current.lastOutcome }),
      ...(close.run === undefined ? {} : { pending: close.run }),
      runsStarted: current?.runsStarted ?? 0,
      resultRunNumber: 0,
    });
    return Promise.resolve();
  }

  notePendingRun(
    partnerId: string,
    storeId: string,
    businessDate: string,
    run: PendingRun,
    lost: { readonly now: Date; readonly lostAfterMs: number },
  ): Promise<{ closeBatchId: string } | undefined> {
    const day = this.days.get(key(partnerId, storeId, businessDate));
    if (!day) return Promise.resolve(undefined);
    if (day.pending?.runId === run.runId) return Promise.resolve({ closeBatchId: day.record.closeBatchId });
    if (day.pending && Date.parse(day.pending.dueAt) + lost.lostAfterMs > lost.now.getTime()) return Promise.resolve(undefined);
    day.pending = run;
    return Promise.resolve({ closeBatchId: day.record.closeBatchId });
  }

  startRun(partnerId: string, storeId: string, businessDate: string, runId: string | undefined): Promise<number> {
    const day = this.days.get(key(partnerId, storeId, businessDate));
    if (!day) return Promise.resolve(0);
    if (runId !== undefined && day.pending?.runId === runId) delete day.pending;
    day.runsStarted += 1;
    return Promise.resolve(day.runsStarted);
  }

  saveResult(
    partnerId: string,
    storeId: string,
    businessDate: string,
    closeBatchId: string,
    result: ResultToSave,
  ): Promise<ReconciliationRecord | undefined> {
    const day = this.days.get(key(partnerId, storeId, businessDate));
    if (day?.record.closeBatchId !== closeBatchId) return Promise.resolve(undefined);
    if (day.resultRunNumber > result.runNumber) return Promise.resolve(undefined);
    // A copy of the same run stored its result first.
    if (result.runId !== undefined && day.record.runId === result.runId && day.record.status !== 'RECEIVED')
      return Promise.resolve(undefined);
    day.resultRunNumber = result.runNumber;
    const outcome = JSON.stringify({ status: result.status, expected: day.record.expected, actual: result.actual });
    const { runId, ...rest } = result;
    day.record = {
      ...day.record,
      ...rest,
      runId: runId ?? null,
      changed: day.lastOutcome !== undefined && day.lastOutcome !== outcome,
    };
    day.lastOutcome = outcome;
    return Promise.resolve(view(day));
  }

  async *list(filter: ReconciliationFilter): AsyncIterable<ReconciliationRecord> {
    for (const day of [...this.days.values()]) {
      const { record } = day;
      if (filter.partnerId && record.partnerId !== filter.partnerId) continue;
      if (filter.status && record.status !== filter.status) continue;
      if (filter.businessDate && record.businessDate !== filter.businessDate) continue;
      if (filter.from && record.businessDate < filter.from) continue;
      if (filter.to && record.businessDate > filter.to) continue;
      yield await Promise.resolve(view(day));
    }
  }

  listRange(partnerId: string, storeId: string, from: string, to: string): Promise<ReconciliationRecord[]> {
    const found = [...this.days.values()]
      .map(view)
      .filter((r) => r.partnerId === partnerId && r.storeId === storeId && r.businessDate >= from && r.businessDate <= to);
    return Promise.resolve(found.sort((a, b) => (a.businessDate < b.businessDate ? -1 : 1)));
  }
}

function view(day: Day): ReconciliationRecord {
  return { ...day.record, pendingRun: day.pending ?? null };
}

function key(partnerId: string, storeId: string, businessDate: string): string {
  return JSON.stringify([partnerId, storeId, businessDate]);
}
