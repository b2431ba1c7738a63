import { setTimeout as delay } from 'node:timers/promises';
import type { TableClient, TableEntity } from '@azure/data-tables';
import { isConflict, isNotFound, isPreconditionFailed } from './storageErrors.js';
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
 * Returns whether this call wrote; throws `WriteContentionError` after `maxAttempts` lost rounds.
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
): Promise<boolean> {
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (attempt > 1) await delay(Math.random() * Math.min(maxPauseMs, 5 * attempt));
    let current: (T & { etag: string }) | undefined;
    try {
      current = await table.getEntity<T>(partitionKey, rowKey);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    const next = decide(current);
    if (next === undefined) return false;
    const entity: TableEntity<T> = { ...next, partitionKey, rowKey };
    try {
      if (current) await table.updateEntity(entity, 'Replace', { etag: current.etag });
      else await table.createEntity(entity);
      return true;
    } catch (error) {
      const lostRace = isPreconditionFailed(error) || isConflict(error) || (current !== undefined && isNotFound(error));
      if (!lostRace) throw error;
    }
  }
  throw new WriteContentionError(table.tableName, maxAttempts);
}
