import { setImmediate as nextTurn } from 'node:timers/promises';
import type { TableClient, TableEntity, TransactionAction } from '@azure/data-tables';
import { compareVersions, type Versioned } from '../domain/reconciliation/compareVersions.js';
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
  /**
   * Rows not written because a row with the same stamp is stored that says something else (see
   * {@link VersionedWriteOptions.sameContent}): a change sent without a new stamp.
   */
  readonly conflictingRowKeys: ReadonlySet<string>;
  /**
   * Rows not written because the same stamp is stored saying the same (by `sameContent`, which it
   * is read whole for), with the stored row: the caller may compare what its columns leave out.
   */
  readonly keptRows: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
}

/** The rows (or records, by key `K`) a write under the version rule left as stored, and why. */
export interface Unwritten<K> {
  /** A newer version is stored. */
  readonly stale: ReadonlySet<K>;
  /** The same version and last_modified_at are stored with other content: a change sent without version + 1. */
  readonly conflicting: ReadonlySet<K>;
}

export interface VersionedWriteOptions {
  /**
   * A row whose stamp equals the stored one replaces it (the copy received last wins), instead of
   * being left as the same version already stored. For rows whose only stamp is a timestamp the
   * sender may not move on every change (stores: contract §4.5 upserts them by store_id).
   */
  readonly replaceOnTie?: boolean;
  /**
   * Whether a stored stamp counts for nothing: one the caller refuses today but accepted before
   * (a store stamped far ahead of the clock). Any row replaces a stored row with such a stamp.
   */
  readonly voidStamp?: (stored: Versioned) => boolean;
  /**
   * Whether the columns of a row to write say the same as the stored row's (read whole for it).
   * When given, an equal stamp keeps the stored row all the same, and one that says something else
   * is reported in `conflictingRowKeys`. See {@link sameColumnsExcept}.
   */
  readonly sameContent?: (written: Readonly<Record<string, unknown>>, stored: Readonly<Record<string, unknown>>) => boolean;
}

/**
 * Content compared column by column, leaving out the stamp and `ignored`: columns that say where a
 * row came from (e.g. the batch that delivered it) rather than what it says.
 */
export function sameColumnsExcept(ignored: readonly string[]): NonNullable<VersionedWriteOptions['sameContent']> {
  const notContent = new Set(['version', 'lastModifiedAt', ...ignored]);
  return (written, stored) => Object.keys(written).every((column) => notContent.has(column) || sameValue(written[column], stored[column]));
}

const maxAttempts = 8;

/** The rows a write left as they were, and why. */
interface Outcome {
  readonly stale: Set<string>;
  readonly conflicting: Set<string>;
  readonly kept: Map<string, Readonly<Record<string, unknown>>>;
}

/**
 * Writes rows of one partition so that the highest version always wins, even with concurrent
 * writers. The common case (rows not stored yet) costs one transaction per 100 rows, or per
 * ~4 MiB of rows when they are large. When a transaction meets rows that exist, those rows are read
 * and the chunk is retried with `If-Match` on each existing row's ETag, so a concurrent newer
 * write is never overwritten.
 * `extraActions` (idempotent upserts in the same partition) ride along in the last chunk with room.
 * The chunks run side by side (the first is sent before the others' bodies are built); when one
 * fails, the others are let finish before the failure is raised, so no write of this call is still
 * under way once it returns or throws.
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
  const outcome: Outcome = { stale: new Set(), conflicting: new Set(), kept: new Map() };
  const write = (chunk: (typeof chunks)[number]) => writeChunk(table, partitionKey, chunk.rows, chunk.extra, outcome, options);
  const [first, ...rest] = chunks;
  const writes: Promise<void>[] = [];
  if (first) {
    const started = write(first);
    // Raised below, with the others' outcomes; not an unhandled rejection while the turn is given.
    started.catch(() => undefined);
    writes.push(started);
    // A transaction leaves for its socket only on a later turn of the event loop: one turn is given
    // so that storage starts on the first while the bodies of the others are built.
    if (rest.length > 0) await nextTurn();
  }
  for (const chunk of rest) writes.push(write(chunk));
  const outcomes = await Promise.allSettled(writes);
  const failed = outcomes.find((settled) => settled.status === 'rejected');
  if (failed) throw failed.reason;
  return { staleRowKeys: outcome.stale, conflictingRowKeys: outcome.conflicting, keptRows: outcome.kept };
}

async function writeChunk(
  table: TableClient,
  partitionKey: string,
  rows: VersionedRow[],
  extra: TransactionAction[],
  outcome: Outcome,
  options: VersionedWriteOptions,
): Promise<void> {
  const entity = (row: VersionedRow): TableEntity => ({ ...row.properties, partitionKey, rowKey: row.rowKey });
  // Optimistic first try: every row is new.
  let actions: TransactionAction[] = [...rows.map((row): TransactionAction => ['create', entity(row)]), ...extra];
  // The ETag each stored row had when this write last read it.
  const readEtags = new Map<string, string>();
  for (let attempt = 1; ; attempt++) {
    if (actions.length === 0) return;
    try {
      await sendTableTransaction(table, actions);
      return;
    } catch (error) {
      if (!(isConflict(error) || isPreconditionFailed(error) || isNotFound(error)) || attempt >= maxAttempts) throw error;
    }
    actions = [...(await guardedActions(table, partitionKey, rows, entity, outcome, options, readEtags)), ...extra];
  }
}

/**
 * Reads the stored rows and builds the actions the version rule allows, each guarded by ETag.
 * `readEtags` holds the ETag of each row as this write read it before, and is updated.
 */
async function guardedActions(
  table: TableClient,
  partitionKey: string,
  rows: VersionedRow[],
  entity: (row: VersionedRow) => TableEntity,
  outcome: Outcome,
  options: VersionedWriteOptions,
  readEtags: Map<string, string>,
): Promise<TransactionAction[]> {
  const { sameContent } = options;
  const stored = await Promise.all(rows.map((row) => readStored(table, partitionKey, row.rowKey, sameContent !== undefined)));
  const actions: TransactionAction[] = [];
  rows.forEach((row, i) => {
    const current = stored[i];
    if (!current) {
      actions.push(['create', entity(row)]);
      return;
    }
    const readBefore = readEtags.get(row.rowKey);
    readEtags.set(row.rowKey, current.etag);
    const order = compareVersions(row, current.stamp);
    // A copy of the same stamp was written since this write read the row: the two were received at
    // the same moment, and the one stored stands. Replacing it again would have each of many such
    // copies undo the others' writes in turn, until they ran out of attempts.
    const tieWrittenMeanwhile = order === 0 && readBefore !== undefined && readBefore !== current.etag;
    const replaces =
      order > 0 || (order === 0 && options.replaceOnTie === true && !tieWrittenMeanwhile) || options.voidStamp?.(current.stamp) === true;
    if (replaces) {
      actions.push(['update', entity(row), 'Replace', { etag: current.etag }]);
    } else if (order < 0) {
      outcome.stale.add(row.rowKey);
    } else if (sameContent && !sameContent(row.properties, current.entity)) {
      outcome.conflicting.add(row.rowKey);
    } else if (sameContent) {
      outcome.kept.set(row.rowKey, current.entity);
    }
    // Otherwise the same version is stored already; nothing to do.
  });
  return actions;
}

interface StoredRow {
  readonly stamp: Versioned;
  readonly etag: string;
  /** The stored columns: all of them when read `whole`, else the stamp's. */
  readonly entity: Readonly<Record<string, unknown>>;
}

/** The stored row of `rowKey`, whole or only its stamp; undefined when there is none. */
async function readStored(table: TableClient, partitionKey: string, rowKey: string, whole: boolean): Promise<StoredRow | undefined> {
  try {
    const e = await table.getEntity<{ version: number; lastModifiedAt: string } & Record<string, unknown>>(partitionKey, rowKey, {
      queryOptions: whole ? {} : { select: ['version', 'lastModifiedAt'] },
    });
    return { stamp: { version: e.version, last_modified_at: e.lastModifiedAt }, etag: e.etag, entity: e };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** Whether a value to write equals the stored one (absent and null alike: storage keeps neither). */
function sameValue(written: unknown, stored: unknown): boolean {
  if ((written === undefined || written === null) && (stored === undefined || stored === null)) return true;
  return written === stored;
}
