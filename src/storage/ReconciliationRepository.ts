import { odata, type TableClient } from '@azure/data-tables';
import Big from 'big.js';
import { closeComesAfter } from '../domain/reconciliation/closeComesAfter.js';
import { AMOUNT_FIELDS, COUNT_FIELDS, type ControlTotals } from '../domain/reconciliation/ControlTotals.js';
import type { Diagnosis } from '../domain/reconciliation/diagnose.js';
import { fromChunkedProperties, toChunkedProperties } from './chunkedJson.js';
import { isNotFound, isPreconditionFailed } from './storageErrors.js';
import { tableKey } from './tableKey.js';
import type { RowReadAhead } from './RowReadAhead.js';
import { WriteContentionError } from './WriteContentionError.js';
import { readEarly, readRowAhead, unread, writeIfCurrent } from './writeIfCurrent.js';

export type ReconciliationStatus = 'RECEIVED' | 'MATCHED' | 'MISMATCHED';

/** Rounds of read-then-write a run's start makes while other writers keep changing the day's row. */
const maxStartAttempts = 32;

/** The reconciliation state of one store-day, as stored. */
export interface ReconciliationRecord {
  readonly partnerId: string;
  readonly storeId: string;
  readonly businessDate: string;
  readonly status: ReconciliationStatus;
  readonly closeBatchId: string;
  readonly closeReceivedAt: string;
  readonly checkedAt: string | null;
  readonly expected: ControlTotals;
  readonly actual: ControlTotals | null;
  readonly differences: readonly string[];
  /** Null until the day is reconciled. */
  readonly diagnosis: Diagnosis | null;
  /** The run that computed the result (absent before a first result, or for runs that named none). */
  readonly runId: string | null;
  /**
   * The number of the run whose result this is (see {@link ResultToSave.runNumber}): null before
   * a first result, and for a result stored before runs were numbered.
   */
  readonly runNumber: number | null;
  /** The result differs in status or figures from the day's result before it. */
  readonly changed: boolean;
  /** A run noted for the day (by its close or a late batch) and not started yet; null when none. */
  readonly pendingRun: PendingRun | null;
}

/** What a later result is compared with to tell whether the day changed. */
interface Outcome {
  readonly status: 'MATCHED' | 'MISMATCHED';
  readonly expected: ControlTotals;
  readonly actual: ControlTotals;
}

/** A run scheduled for the day and not yet started; later late batches wait for it instead of scheduling another. */
export interface PendingRun {
  readonly runId: string;
  /** When its message becomes visible: a marker long past this is taken as lost (its message was never sent). */
  readonly dueAt: string;
}

/** A finished run's result, as the reconciler hands it over for the close it was computed from. */
export interface ResultToSave {
  readonly status: 'MATCHED' | 'MISMATCHED';
  readonly checkedAt: string;
  readonly actual: ControlTotals;
  readonly differences: readonly string[];
  readonly diagnosis: Diagnosis;
  readonly runId?: string | undefined;
  /**
   * The number `startRun` gave the run. The result is stored only when no run started after it
   * has stored one: that run listed the day later, so it counted at least what this one did.
   */
  readonly runNumber: number;
}

interface ResultEntity {
  partnerId: string;
  storeId: string;
  businessDate: string;
  status: ReconciliationStatus;
  closeBatchId: string;
  closeReceivedAt: string;
  checkedAt?: string;
  expected: string;
  actual?: string;
  differences: string;
  runId?: string;
  changed?: boolean;
  /** JSON of the last result's Outcome; kept when a corrected close sets the day back to RECEIVED. */
  lastOutcome?: string;
  /** The pending run's id, '' when none (a merge cannot remove a property). */
  pendingRunId?: string;
  pendingDueAt?: string;
  /** Runs of the day started so far: the number of the last one (absent: none yet). */
  runsStarted?: number;
  /** The number of the run whose result is stored (absent: none, or stored before runs were numbered). */
  resultRunNumber?: number;
  [chunk: string]: unknown;
}

export interface ReconciliationFilter {
  readonly partnerId?: string | undefined;
  readonly status?: ReconciliationStatus | undefined;
  readonly businessDate?: string | undefined;
  /** Business dates from and to, inclusive. */
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

/** The ids the HQ tool creates partners with: spelled out as they are at the head of a key. */
const plainPartnerId = /^[A-Za-z0-9._-]{1,64}$/;

/** One row per (partner, store, business date): RECEIVED when a close arrives, then the result. */
export class ReconciliationRepository {
  constructor(private readonly table: TableClient) {}

  /** With `readAhead`, the row it read is the answer (a read ahead that failed is read again). */
  async get(partnerId: string, storeId: string, businessDate: string, readAhead?: RowReadAhead): Promise<ReconciliationRecord | undefined> {
    const early = await readEarly<ResultEntity>(readAhead);
    if (early !== unread) return early && toRecord(early);
    try {
      return toRecord(await this.table.getEntity<ResultEntity>(tableKey(partnerId, storeId), businessDate));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Starts reading a store-day's row for a `markReceived` or `saveResult` soon after. */
  readAhead(partnerId: string, storeId: string, businessDate: string): RowReadAhead {
    return readRowAhead(this.table, tableKey(partnerId, storeId), businessDate);
  }

  /** Sets the day to RECEIVED for this close, unless it is recorded or a close that comes after it is (`closeComesAfter`). */
  async markReceived(
    partnerId: string,
    storeId: string,
    businessDate: string,
    close: { batchId: string; receivedAt: string; expected: ControlTotals; run?: PendingRun },
    readAhead?: RowReadAhead,
  ): Promise<void> {
    await writeIfCurrent<ResultEntity>(
      this.table,
      tableKey(partnerId, storeId),
      businessDate,
      (current) => {
        if (current && !closeComesAfter(close, { batchId: current.closeBatchId, receivedAt: current.closeReceivedAt })) return undefined;
        const lastOutcome = current && (current.lastOutcome ?? serialize(outcomeOf(current)));
        return {
          partnerId,
          storeId,
          businessDate,
          status: 'RECEIVED',
          closeBatchId: close.batchId,
          closeReceivedAt: close.receivedAt,
          expected: JSON.stringify(close.expected),
          differences: '[]',
          // The close's own run is the day's pending run: batches arriving before it starts are read by it.
          // A marker of the previous close is dropped, since its run will find its close superseded.
          pendingRunId: close.run?.runId ?? '',
          pendingDueAt: close.run?.dueAt ?? '',
          ...(lastOutcome ? { lastOutcome } : {}),
          // Runs go on numbering from where the previous close's left off.
          ...(current?.runsStarted === undefined ? {} : { runsStarted: current.runsStarted }),
        };
      },
      undefined,
      readAhead,
    );
  }

  /**
   * Notes a run for the day unless one is pending already (and not long overdue, in which case its
   * message is taken as lost). Returns the close the run is for, or undefined when nothing needs
   * scheduling: no close recorded, or a pending run that has not started and so will read what
   * the caller wrote before calling.
   */
  async notePendingRun(
    partnerId: string,
    storeId: string,
    businessDate: string,
    run: PendingRun,
    lost: { readonly now: Date; readonly lostAfterMs: number },
  ): Promise<{ closeBatchId: string } | undefined> {
    const partitionKey = tableKey(partnerId, storeId);
    for (;;) {
      const current = await this.#read(partitionKey, businessDate);
      if (!current) return undefined;
      // The caller's own run noted before (its message may never have been sent): send it again.
      if (current.pendingRunId === run.runId) return { closeBatchId: current.closeBatchId };
      if (current.pendingRunId && Date.parse(current.pendingDueAt ?? '') + lost.lostAfterMs > lost.now.getTime()) return undefined;
      try {
        await this.table.updateEntity({ partitionKey, rowKey: businessDate, pendingRunId: run.runId, pendingDueAt: run.dueAt }, 'Merge', {
          etag: current.etag,
        });
        return { closeBatchId: current.closeBatchId };
      } catch (error) {
        if (!isPreconditionFailed(error) && !isNotFound(error)) throw error;
      }
    }
  }

  /**
   * A run starts: it takes the day's next number (see {@link ResultToSave.runNumber}) and, when it
   * is the pending run, is no longer pending, so a batch committed from now on schedules another.
   * Resolves with the number; 0 when the day has no close recorded (the run will find it so).
   */
  async startRun(
    partnerId: string,
    storeId: string,
    businessDate: string,
    runId: string | undefined,
    readAhead?: RowReadAhead,
  ): Promise<number> {
    const partitionKey = tableKey(partnerId, storeId);
    // The first round writes on the row read ahead, guarded by its ETag: a row changed since is
    // read again, as the run may have been noted pending since.
    let early = await readEarly<ResultEntity>(readAhead);
    for (let attempt = 1; attempt <= maxStartAttempts; attempt++) {
      const current = early !== unread && early !== undefined ? early : await this.#read(partitionKey, businessDate);
      early = unread;
      if (!current) return 0;
      const runNumber = (current.runsStarted ?? 0) + 1;
      const started = runId !== undefined && current.pendingRunId === runId ? { pendingRunId: '', pendingDueAt: '' } : {};
      try {
        await this.table.updateEntity({ partitionKey, rowKey: businessDate, runsStarted: runNumber, ...started }, 'Merge', {
          etag: current.etag,
        });
        return runNumber;
      } catch (error) {
        if (!isPreconditionFailed(error) && !isNotFound(error)) throw error;
      }
    }
    throw new WriteContentionError(this.table.tableName, maxStartAttempts);
  }

  async #read(partitionKey: string, rowKey: string): Promise<(ResultEntity & { etag: string }) | undefined> {
    try {
      return await this.table.getEntity<ResultEntity>(partitionKey, rowKey);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /**
   * Records a result for the close it was computed from, noting whether it changed the day's
   * status or figures; undefined when that close has been superseded, or when a run started after
   * this one has stored its result.
   */
  async saveResult(
    partnerId: string,
    storeId: string,
    businessDate: string,
    closeBatchId: string,
    result: ResultToSave,
    readAhead?: RowReadAhead,
  ): Promise<ReconciliationRecord | undefined> {
    let written: ResultEntity | undefined;
    const saved = await writeIfCurrent<ResultEntity>(
      this.table,
      tableKey(partnerId, storeId),
      businessDate,
      (current) => {
        if (current?.closeBatchId !== closeBatchId) return undefined;
        // A run started after this one stored its result: it counted at least what this one did.
        if ((current.resultRunNumber ?? 0) > result.runNumber) return undefined;
        if (isCopyOfStoredRun(current, result)) return undefined;
        const before = parseOutcome(current.lastOutcome) ?? outcomeOf(current);
        const expected = JSON.parse(current.expected) as ControlTotals;
        const outcome: Outcome = { status: result.status, expected, actual: result.actual };
        written = {
          partnerId,
          storeId,
          businessDate,
          status: result.status,
          closeBatchId,
          closeReceivedAt: current.closeReceivedAt,
          checkedAt: result.checkedAt,
          expected: current.expected,
          actual: JSON.stringify(result.actual),
          differences: JSON.stringify(result.differences),
          ...toChunkedProperties('diagnosis', result.diagnosis),
          ...(result.runId === undefined ? {} : { runId: result.runId }),
          changed: before !== undefined && !sameOutcome(before, outcome),
          lastOutcome: JSON.stringify(outcome),
          // A run noted while this one computed is still to come.
          pendingRunId: current.pendingRunId ?? '',
          pendingDueAt: current.pendingDueAt ?? '',
          ...(current.runsStarted === undefined ? {} : { runsStarted: current.runsStarted }),
          resultRunNumber: result.runNumber,
        };
        return written;
      },
      undefined,
      readAhead,
    );
    return saved && written ? toRecord(written) : undefined;
  }

  /** One store's days from `from` to `to` inclusive (one partition, a key range). */
  async listRange(partnerId: string, storeId: string, from: string, to: string): Promise<ReconciliationRecord[]> {
    const records: ReconciliationRecord[] = [];
    for await (const entity of this.table.listEntities<ResultEntity>({
      queryOptions: { filter: odata`PartitionKey eq ${tableKey(partnerId, storeId)} and RowKey ge ${from} and RowKey le ${to}` },
    })) {
      records.push(toRecord(entity));
    }
    return records;
  }

  /**
   * Results across partners for HQ (a filtered scan). One partner's rows are read from the key range
   * of its partitions (`<partner>|<store>`), not found among every partner's; the dates bound the
   * row keys.
   */
  async *list(filter: ReconciliationFilter): AsyncIterable<ReconciliationRecord> {
    const clauses: string[] = [];
    const quote = (v: string) => `'${v.replace(/'/g, "''")}'`;
    if (filter.partnerId) {
      if (plainPartnerId.test(filter.partnerId)) {
        // `|` ends the partner's part of the key; `}` is the character after it.
        clauses.push(`PartitionKey ge ${quote(`${filter.partnerId}|`)}`, `PartitionKey lt ${quote(`${filter.partnerId}}`)}`);
      }
      clauses.push(`partnerId eq ${quote(filter.partnerId)}`);
    }
    if (filter.status) clauses.push(`status eq ${quote(filter.status)}`);
    if (filter.businessDate) clauses.push(`RowKey eq ${quote(filter.businessDate)}`);
    if (filter.from) clauses.push(`RowKey ge ${quote(filter.from)}`);
    if (filter.to) clauses.push(`RowKey le ${quote(filter.to)}`);
    const queryOptions = clauses.length > 0 ? { filter: clauses.join(' and ') } : {};
    for await (const entity of this.table.listEntities<ResultEntity>({ queryOptions })) yield toRecord(entity);
  }
}

function toRecord(e: ResultEntity): ReconciliationRecord {
  return {
    partnerId: e.partnerId,
    storeId: e.storeId,
    businessDate: e.businessDate,
    status: e.status,
    closeBatchId: e.closeBatchId,
    closeReceivedAt: e.closeReceivedAt,
    checkedAt: e.checkedAt ?? null,
    expected: JSON.parse(e.expected) as ControlTotals,
    actual: e.actual ? (JSON.parse(e.actual) as ControlTotals) : null,
    differences: JSON.parse(e.differences) as string[],
    // Written only from a ResultToSave's diagnosis.
    diagnosis: (fromChunkedProperties('diagnosis', e) as Diagnosis | undefined) ?? null,
    runId: e.runId ?? null,
    runNumber: e.resultRunNumber ?? null,
    changed: e.changed ?? false,
    pendingRun: e.pendingRunId ? { runId: e.pendingRunId, dueAt: e.pendingDueAt ?? '' } : null,
  };
}

/** The outcome a stored result row holds, if it holds a result. */
function outcomeOf(e: ResultEntity): Outcome | undefined {
  if (e.status === 'RECEIVED' || !e.actual) return undefined;
  return { status: e.status, expected: JSON.parse(e.expected) as ControlTotals, actual: JSON.parse(e.actual) as ControlTotals };
}

function serialize(outcome: Outcome | undefined): string | undefined {
  return outcome && JSON.stringify(outcome);
}

function parseOutcome(text: string | undefined): Outcome | undefined {
  return text ? (JSON.parse(text) as Outcome) : undefined;
}

/**
 * Same status and the same figures: counts exactly, amounts as decimals. A figure only one side
 * has (a row stored before that control total existed) is left out: the partner never saw it, so
 * it changes nothing they saw (a new total that alters the status still shows as a change), and
 * the comparison must never fail, or the day's new result could not be stored and its run would
 * be retried for ever.
 */
function sameOutcome(a: Outcome, b: Outcome): boolean {
  const sameCount = (x: number | undefined, y: number | undefined): boolean => x === undefined || y === undefined || x === y;
  const sameAmount = (x: string | undefined, y: string | undefined): boolean => x === undefined || y === undefined || new Big(x).eq(y);
  const same = (x: ControlTotals, y: ControlTotals): boolean =>
    COUNT_FIELDS.every((field) => sameCount(x[field], y[field])) && AMOUNT_FIELDS.every((field) => sameAmount(x[field], y[field]));
  return a.status === b.status && same(a.expected, b.expected) && same(a.actual, b.actual);
}

/**
 * Whether a run of this id has stored the day's result already: the same message sent twice (a
 * close resent while its message was due, a replayed push) and run side by side. That run is the
 * day's one result of the id, published under its event ids; a second would be published under
 * others, and a receiver would see one run reported twice.
 */
function isCopyOfStoredRun(current: { runId?: string; status?: string }, result: { runId?: string | undefined }): boolean {
  return result.runId !== undefined && current.runId === result.runId && current.status !== 'RECEIVED';
}
