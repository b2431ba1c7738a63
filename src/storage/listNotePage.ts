import { odata, type TableClient, type TableEntityResult } from '@azure/data-tables';
import type { NotePage } from '../services/ports/NotePage.js';

/**
 * At most `max` entities of one partition with a row key above `after`, in key order, each turned
 * into a note (or skipped, when `toNote` gives undefined). `next` is the row key of the last entity
 * of the page when the partition holds more beyond it.
 */
export async function listNotePage<E extends object, N>(
  table: TableClient,
  partitionKey: string,
  after: string | undefined,
  max: number,
  select: readonly string[],
  toNote: (entity: TableEntityResult<E>) => N | undefined,
): Promise<NotePage<N>> {
  const filter =
    after === undefined ? odata`PartitionKey eq ${partitionKey}` : odata`PartitionKey eq ${partitionKey} and RowKey gt ${after}`;
  const notes: N[] = [];
  let taken = 0;
  let lastKey: string | undefined;
  // One entity more than the page is asked for, to know whether the partition goes on.
  for await (const entities of table
    .listEntities<E>({ queryOptions: { filter, select: ['RowKey', ...select] } })
    .byPage({ maxPageSize: max + 1 })) {
    for (const entity of entities) {
      if (taken === max) return lastKey === undefined ? { notes } : { notes, next: lastKey };
      taken += 1;
      lastKey = entity.rowKey;
      const note = toNote(entity);
      if (note !== undefined) notes.push(note);
    }
  }
  return { notes };
}
