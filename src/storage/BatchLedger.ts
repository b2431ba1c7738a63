import { odata, type TableClient } from '@azure/data-tables';
import type { BatchKind } from '../domain/model/BatchKind.js';
import type { Warning } from '../domain/model/Warning.js';
import { fromChunkedProperties, toCompactProperties } from './chunkedJson.js';
import { isConflict, isNotFound, isPreconditionFailed } from './storageErrors.js';
import { decodeKeyPart, encodeKeyPart } from './tableKey.js';

/** What the partner was told when the batch was committed; repeats answer with the same. */
export interface BatchReceipt {
  readonly recordCount: number;
  readonly warnings: readonly Warning[];
}

export type LedgerEntry =
  | { readonly state: 'PENDING'; readonly kind: BatchKind; readonly bodyHash: string; readonly createdAt: string; readonly etag: string }
  | {
      readonly state: 'COMMITTED';
      readonly kind: BatchKind;
      readonly bodyHash: string;
      readonly createdAt: string;
      readonly committedAt: string;
      readonly receipt: BatchReceipt;
      readonly etag: string;
    }
  | {
      readonly state: 'FAILED';
      readonly kind: BatchKind;
      readonly bodyHash: string;
      readonly createdAt: string;
      readonly failedAt: string;
      /** What storage answered, e.g. `storage refused the content: 400 EntityTooLarge` (never a value of the body). */
      readonly failure: string;
      readonly etag: string;
    };

export type LedgerState = LedgerEntry['state'];

/** A ledger entry as HQ lists it. */
export interface LedgerListing {
  readonly partnerId: string;
  readonly batchId: string;
  readonly state: LedgerState;
  readonly kind: BatchKind;
  readonly createdAt: string;
  readonly failedAt?: string;
  readonly failure?: string;
}

interface LedgerEntity {
  partitionKey: string;
  rowKey: string;
  state: LedgerState;
  kind: BatchKind;
  bodyHash: string;
  createdAt: string;
  committedAt?: string;
  failedAt?: string;
  failure?: string;
  recordCount?: number;
  [chunk: string]: unknown;
}

/**
 * One row per (partner, batch_id): PENDING from the first receipt, then COMMITTED once every write
 * of the batch is done, or FAILED when storage refused what the batch would write. Both are
 * final. Only the request whose commit succeeds answers ACCEPTED.
 */
export class BatchLedger {
  constructor(private readonly table: TableClient) {}

  async get(partnerId: string, batchId: string): Promise<LedgerEntry | undefined> {
    try {
      return toEntry(await this.table.getEntity<LedgerEntity>(encodeKeyPart(partnerId), batchKey(batchId)));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Creates the PENDING entry; undefined when another request created one first. */
  async createPending(partnerId: string, batchId: string, kind: BatchKind, bodyHash: string, now: Date): Promise<LedgerEntry | undefined> {
    try {
      const createdAt = now.toISOString();
      const response = await this.table.createEntity<LedgerEntity>({
        partitionKey: encodeKeyPart(partnerId),
        rowKey: batchKey(batchId),
        state: 'PENDING',
        kind,
        bodyHash,
        createdAt,
      });
      return { state: 'PENDING', kind, bodyHash, createdAt, etag: response.etag ?? '*' };
    } catch (error) {
      if (isConflict(error)) return undefined;
      throw error;
    }
  }

  /** Marks the batch committed if the entry is still the PENDING one read; false when another request won. */
  async commit(partnerId: string, batchId: string, pending: LedgerEntry, receipt: BatchReceipt, now: Date): Promise<boolean> {
    return this.replacePending(partnerId, batchId, pending, {
      state: 'COMMITTED',
      committedAt: now.toISOString(),
      recordCount: receipt.recordCount,
      ...toCompactProperties('warnings', receipt.warnings),
    });
  }

  /**
   * Marks the batch FAILED if the entry is still the PENDING one read; false when another request
   * committed, failed or dropped it first. Written last, after what the batch wrote was removed.
   */
  async markFailed(partnerId: string, batchId: string, pending: LedgerEntry, failure: string, now: Date): Promise<boolean> {
    return this.replacePending(partnerId, batchId, pending, { state: 'FAILED', failedAt: now.toISOString(), failure });
  }

  /** Drops a PENDING entry whose body was never stored (never acknowledged, nothing to finish). */
  async deleteAbandoned(partnerId: string, batchId: string, pending: LedgerEntry): Promise<boolean> {
    return whileStillPending(() => this.table.deleteEntity(encodeKeyPart(partnerId), batchKey(batchId), { etag: pending.etag }));
  }

  /** Replaces the entry read as PENDING with its outcome, keeping what the entry recorded of the batch. */
  private replacePending(
    partnerId: string,
    batchId: string,
    pending: LedgerEntry,
    outcome: { readonly state: 'COMMITTED' | 'FAILED'; readonly [property: string]: unknown },
  ): Promise<boolean> {
    return whileStillPending(() =>
      this.table.updateEntity(
        {
          partitionKey: encodeKeyPart(partnerId),
          rowKey: batchKey(batchId),
          kind: pending.kind,
          bodyHash: pending.bodyHash,
          createdAt: pending.createdAt,
          ...outcome,
        },
        'Replace',
        { etag: pending.etag },
      ),
    );
  }

  /** Every PENDING entry (HQ tool and tests: a scan). */
  async *listPending(): AsyncIterable<{ partnerId: string; batchId: string; createdAt: string }> {
    for await (const entry of this.list('PENDING')) yield entry;
  }

  /** Every entry in a state, across partners, or one partner's (HQ tool: a scan). */
  async *list(state: LedgerState, partnerId?: string): AsyncIterable<LedgerListing> {
    const filter =
      partnerId === undefined ? odata`state eq ${state}` : odata`PartitionKey eq ${encodeKeyPart(partnerId)} and state eq ${state}`;
    for await (const entity of this.table.listEntities<LedgerEntity>({
      queryOptions: { filter, select: ['PartitionKey', 'RowKey', 'state', 'kind', 'createdAt', 'failedAt', 'failure'] },
    })) {
      yield {
        partnerId: decodeKeyPart(entity.partitionKey),
        batchId: decodeKeyPart(entity.rowKey),
        state: entity.state,
        kind: entity.kind,
        createdAt: entity.createdAt,
        ...(entity.failedAt !== undefined ? { failedAt: entity.failedAt } : {}),
        ...(entity.failure !== undefined ? { failure: entity.failure } : {}),
      };
    }
  }
}

/** A UUID names the same batch in upper or lower case: the ledger keys it in lower case. */
function batchKey(batchId: string): string {
  return encodeKeyPart(batchId.toLowerCase());
}

function toEntry(entity: LedgerEntity & { etag: string }): LedgerEntry {
  const base = { kind: entity.kind, bodyHash: entity.bodyHash, createdAt: entity.createdAt, etag: entity.etag };
  if (entity.state === 'PENDING') return { state: 'PENDING', ...base };
  if (entity.state === 'FAILED') {
    return { state: 'FAILED', ...base, failedAt: entity.failedAt ?? entity.createdAt, failure: entity.failure ?? 'unknown' };
  }
  return {
    state: 'COMMITTED',
    ...base,
    committedAt: entity.committedAt ?? entity.createdAt,
    receipt: {
      recordCount: entity.recordCount ?? 0,
      // Written by `commit` from the receipt's warnings.
      warnings: (fromChunkedProperties('warnings', entity) as Warning[] | undefined) ?? [],
    },
  };
}

/**
 * Runs a write conditional on the etag of the entry read as PENDING: false when another request
 * committed, failed or dropped the batch first (the entry changed or is gone), which is no error.
 */
async function whileStillPending(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (isPreconditionFailed(error) || isNotFound(error)) return false;
    throw error;
  }
}
