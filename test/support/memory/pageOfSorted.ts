import type { NotePage } from '../../../src/services/ports/NotePage.js';

/** A page of notes held under sortable keys, as a table partition lists them: keys above `after`, at most `max`. */
export function pageOfSorted<N>(entries: Iterable<readonly [string, N]>, after: string | undefined, max: number): Promise<NotePage<N>> {
  const above = [...entries].filter(([key]) => after === undefined || key > after).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const taken = above.slice(0, max);
  const last = taken.at(-1);
  return Promise.resolve(
    above.length > max && last ? { notes: taken.map(([, n]) => n), next: last[0] } : { notes: taken.map(([, n]) => n) },
  );
}
