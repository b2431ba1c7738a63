import type { TableClient, TableEntity, TransactionAction } from '@azure/data-tables';
import { compareVersions, type Versioned } from '../domain/reconciliation/isNewerVersion.js';
import { sendTableTransaction } from './sendTableTransaction.js';
import { isConflict, isNotFound, isPreconditionFailed } from './storageErrors.js';
import { actionSize, entityRequestSize, fitsOneTransaction, transactionChunks } from './transactionChunks.js';

/**
 * One row to write under the version rule. `properties` must carry the stamp as `version` and
 * `lastModifiedAt`, and must not use partitionKey/rowKey.
 */
export interface VersionedRow extends Versioned {
  readonly rowKey: string;
  readonly properties: Record<string, unknown>;
}

export interface VersionedWriteResult {
  /** Rows not written because the stored version is newer. */
  readonly staleRowKeys: ReadonlySet<string>;
}

export interface VersionedWriteOptions {
  /**
   * A row whose stamp equals the stored one replaces it (the copy received last wins), instead of
   * being left as the same version already stored. For rows whose only stamp is a timestamp the
   * sender may not move on every change (stores: contract §4.5 upserts them by store_id).
   */
  readonly replaceOnTie?: boolean;
}

const maxAttempts = 8;

/**
 * Writes rows of one partition so that the highest version always wins, even with concurrent
 * writers. The common case (rows not stored yet) costs one transaction per 100 rows, or per
 * ~4 MiB of rows when they are large. When a transaction meets rows that exist, those rows are read
 * and the chunk is retried with `If-Match` on each existing row's ETag, so a concurrent newer
 * write is never overwritten.
 * `extraActions` (idempotent upserts in the same partition) ride along in the last chunk with room.
 * The chunks run side by side; when one fails, the others are let finish before the failure is
 * raised, so no write of this call is still under way once it returns or throws.
 */
export async function writeVersionedRows(
  table: TableClient,
  partitionKey: string,
  rows: readonly VersionedRow[],
  extraActions: readonly TransactionAction[] = [],
  options: VersionedWriteOptions = {},
): Promise<VersionedWriteResult> {
  const sizes = new Map<VersionedRow, number>();
  const rowSize = (row: VersionedRow): number => {
    let size = sizes.get(row);
    if (size === undefined) {
      size = entityRequestSize(row.properties, { partitionKey, rowKey: row.rowKey });
      sizes.set(row, size);
    }
    return size;
  };
  const chunks: { rows: VersionedRow[]; extra: TransactionAction[] }[] = transactionChunks(rows, rowSize).map((chunk) => ({
    rows: chunk,
    extra: [],
  }));
  const last = chunks[chunks.length - 1];
  if (extraActions.length > 0) {
    const extraBytes = extraActions.reduce((sum, action) => sum + actionSize(action), 0);
    const lastBytes = last ? last.rows.reduce((sum, row) => sum + rowSize(row), 0) : 0;
    if (last && fitsOneTransaction(last.rows.length + extraActions.length, lastBytes + extraBytes)) last.extra.push(...extraActions);
    else chunks.push({ rows: [], extra: [...extraActions] });
  }
  const stale = new Set<string>();
  const replaceOnTie = options.replaceOnTie === true;
  const outcomes = await Promise.allSettled(
    chunks.map((chunk) => writeChunk(table, partitionKey, chunk.rows, chunk.extra, stale, replaceOnTie)),
  );
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return { staleRowKeys: stale };
}

async function writeChunk(
  table: TableClient,
  partitionKey: string,
  rows: VersionedRow[],
  extra: TransactionAction[],
  stale: Set<string>,
  replaceOnTie: boolean,
): Promise<void> {
  const entity = (row: VersionedRow): TableEntity => ({ ...row.properties, partitionKey, rowKey: row.rowKey });
  // Optimistic first try: every row is new.
  let actions: TransactionAction[] = [...rows.map((row): TransactionAction => ['create', entity(row)]), ...extra];
  for (let attempt = 1; ; attempt++) {
    if (actions.length === 0) return;
    try {
      await sendTableTransaction(table, actions);
      return;
    } catch (error) {
      if (!(isConflict(error) || isPreconditionFailed(error) || isNotFound(error)) || attempt >= maxAttempts) throw error;
    }
    actions = [...(await guardedActions(table, partitionKey, rows, entity, stale, replaceOnTie)), ...extra];
  }
}

/** Reads the stored rows and builds the actions the version rule allows, each guarded by ETag. */
async function guardedActions(
  table: TableClient,
  partitionKey: string,
  rows: VersionedRow[],
  entity: (row: VersionedRow) => TableEntity,
  stale: Set<string>,
  replaceOnTie: boolean,
): Promise<TransactionAction[]> {
  const stored = await Promise.all(rows.map((row) => readStamp(table, partitionKey, row.rowKey)));
  const actions: TransactionAction[] = [];
  rows.forEach((row, i) => {
    const current = stored[i];
    if (!current) {
      actions.push(['create', entity(row)]);
      return;
    }
    const order = compareVersions(row, current);
    if (order > 0 || (order === 0 && replaceOnTie)) actions.push(['update', entity(row), 'Replace', { etag: current.etag }]);
    else if (order < 0) stale.add(row.rowKey);
    // order === 0 otherwise: the same version is stored already; nothing to do.
  });
  return actions;
}

async function readStamp(table: TableClient, partitionKey: string, rowKey: string): Promise<(Versioned & { etag: string }) | undefined> {
  try {
    const e = await table.getEntity<{ version: number; lastModifiedAt: string }>(partitionKey, rowKey, {
      queryOptions: { select: ['version', 'lastModifiedAt'] },
    });
    return { version: e.version, last_modified_at: e.lastModifiedAt, etag: e.etag };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
