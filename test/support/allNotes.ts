import type { NotePage } from '../../src/services/ports/NotePage.js';

/** Every note of a paged listing, following `next` from page to page. */
export async function allNotes<N>(listPage: (after: string | undefined) => Promise<NotePage<N>>): Promise<N[]> {
  const notes: N[] = [];
  let after: string | undefined;
  do {
    const page = await listPage(after);
    notes.push(...page.notes);
    after = page.next;
  } while (after !== undefined);
  return notes;
}
