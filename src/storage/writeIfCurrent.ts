import { setTimeout as delay } from 'node:timers/promises';
import type { TableClient, TableEntity } from '@azure/data-tables';
import { isConflict, isNotFound, isPreconditionFailed } from './storageErrors.js';
import type { RowReadAhead } from './RowReadAhead.js';
import { WriteContentionError } from './WriteContentionError.js';

/**
 * Rounds of read → decide → write before giving up. Each lost round means another writer
 * succeeded, so this bounds the wait of a writer among that many concurrent writers of one row.
 */
const maxAttempts = 32;

/** Longest pause, in ms, between two rounds; the pause is random so that losers do not collide again. */
const maxPauseMs = 100;

/**
 * Read → decide → write of one row, guarded by its ETag (or by create when it is absent), retried
 * when another writer got there first. `decide` sees the stored row (undefined when absent) and
 * returns the row to write, or undefined to leave the row as it is.
 * Returns whether this call wrote (and hands the written row's ETag to `onWritten`); throws
 * `WriteContentionError` after `maxAttempts` lost rounds. With `readAhead` (a read of this row
 * started earlier), the first round decides on that instead of reading.
 *
 * A 404 is a lost race only on the update: the row was deleted after it was read, and the next
 * round creates it. A create answered 404 means the table itself is missing, which no retry
 * changes, so it is thrown.
 */
export async function writeIfCurrent<T extends object>(
  table: TableClient,
  partitionKey: string,
  rowKey: string,
  decide: (current: T | undefined) => T | undefined,
  onWritten?: (etag: string | undefined) => void,
  readAhead?: RowReadAhead,
): Promise<boolean> {
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (attempt > 1) await delay(Math.random() * Math.min(maxPauseMs, 5 * attempt));
    let current: (T & { etag: string }) | undefined;
    const early = attempt === 1 ? await readEarly<T>(readAhead) : unread;
    if (early !== unread) {
      current = early;
    } else {
      try {
        current = await table.getEntity<T>(partitionKey, rowKey);
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
    const next = decide(current);
    if (next === undefined) return false;
    const entity: TableEntity<T> = { ...next, partitionKey, rowKey };
    try {
      const written = current ? await table.updateEntity(entity, 'Replace', { etag: current.etag }) : await table.createEntity(entity);
      onWritten?.(written.etag);
      return true;
    } catch (error) {
      const lostRace = isPreconditionFailed(error) || isConflict(error) || (current !== undefined && isNotFound(error));
      if (!lostRace) throw error;
    }
  }
  throw new WriteContentionError(table.tableName, maxAttempts);
}

export const unread = Symbol('unread');

/** The row a read ahead found (undefined: absent), or `unread` when there was none or it failed. */
export async function readEarly<T>(readAhead: RowReadAhead | undefined): Promise<(T & { etag: string }) | undefined | typeof unread> {
  if (readAhead === undefined) return unread;
  try {
    return (await readAhead.row) as (T & { etag: string }) | undefined;
  } catch {
    return unread;
  }
}

/** Starts reading a row for a later `writeIfCurrent`; a failure is left for the write to meet (it reads again). */
export function readRowAhead(table: TableClient, partitionKey: string, rowKey: string): RowReadAhead {
  const row = table.getEntity(partitionKey, rowKey).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
  // Never awaited when the push ends before its write (a repeat, a refusal): not an unhandled rejection.
  row.catch(() => undefined);
  return { row };
}
