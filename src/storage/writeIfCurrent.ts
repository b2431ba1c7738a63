import type { TableClient, TableEntity } from '@azure/data-tables';
import { isConflict, isNotFound, isPreconditionFailed } from './storageErrors.js';

/**
 * Read → decide → write of one row, guarded by its ETag (or by create when it is absent), retried
 * when another writer got there first. `decide` sees the stored row (undefined when absent) and
 * returns the row to write, or undefined to leave the row as it is.
 * Returns whether this call wrote.
 */
export async function writeIfCurrent<T extends object>(
  table: TableClient,
  partitionKey: string,
  rowKey: string,
  decide: (current: T | undefined) => T | undefined,
): Promise<boolean> {
  for (;;) {
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
      if (!isConflict(error) && !isPreconditionFailed(error) && !isNotFound(error)) throw error;
    }
  }
}
