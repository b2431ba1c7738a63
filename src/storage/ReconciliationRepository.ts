import { odata, type TableClient } from '@azure/data-tables';
import type { ControlTotals } from '../domain/reconciliation/ControlTotals.js';
import { fromChunkedProperties, toChunkedProperties } from './chunkedJson.js';
import { isNotFound } from './storageErrors.js';
import { tableKey } from './tableKey.js';
import { writeIfCurrent } from './writeIfCurrent.js';

export type ReconciliationStatus = 'RECEIVED' | 'MATCHED' | 'MISMATCHED';

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
  readonly diagnosis: unknown;
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
  [chunk: string]: unknown;
}

export interface ReconciliationFilter {
  readonly partnerId?: string | undefined;
  readonly status?: ReconciliationStatus | undefined;
  readonly businessDate?: string | undefined;
}

/** One row per (partner, store, business date): RECEIVED when a close arrives, then the result. */
export class ReconciliationRepository {
  constructor(private readonly table: TableClient) {}

  async get(partnerId: string, storeId: string, businessDate: string): Promise<ReconciliationRecord | undefined> {
    try {
      return toRecord(await this.table.getEntity<ResultEntity>(tableKey(partnerId, storeId), businessDate));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Sets the day to RECEIVED for this close, unless a close received later is already recorded. */
  async markReceived(
    partnerId: string,
    storeId: string,
    businessDate: string,
    close: { batchId: string; receivedAt: string; expected: ControlTotals },
  ): Promise<void> {
    await writeIfCurrent<ResultEntity>(this.table, tableKey(partnerId, storeId), businessDate, (current) => {
      if (current && (current.closeBatchId === close.batchId || current.closeReceivedAt > close.receivedAt)) return undefined;
      return {
        partnerId,
        storeId,
        businessDate,
        status: 'RECEIVED',
        closeBatchId: close.batchId,
        closeReceivedAt: close.receivedAt,
        expected: JSON.stringify(close.expected),
        differences: '[]',
      };
    });
  }

  /** Records a result for the close it was computed from; false when that close has been superseded. */
  async saveResult(
    partnerId: string,
    storeId: string,
    businessDate: string,
    closeBatchId: string,
    result: {
      status: 'MATCHED' | 'MISMATCHED';
      checkedAt: string;
      actual: ControlTotals;
      differences: readonly string[];
      diagnosis: unknown;
    },
  ): Promise<boolean> {
    return writeIfCurrent<ResultEntity>(this.table, tableKey(partnerId, storeId), businessDate, (current) => {
      if (current?.closeBatchId !== closeBatchId) return undefined;
      return {
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
      };
    });
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

  /** Results across partners for HQ (a filtered scan). */
  async *list(filter: ReconciliationFilter): AsyncIterable<ReconciliationRecord> {
    const clauses: string[] = [];
    const quote = (v: string) => `'${v.replace(/'/g, "''")}'`;
    if (filter.partnerId) clauses.push(`partnerId eq ${quote(filter.partnerId)}`);
    if (filter.status) clauses.push(`status eq ${quote(filter.status)}`);
    if (filter.businessDate) clauses.push(`businessDate eq ${quote(filter.businessDate)}`);
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
    diagnosis: fromChunkedProperties('diagnosis', e) ?? null,
  };
}
