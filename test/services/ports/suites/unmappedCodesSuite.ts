import { expect, it } from 'vitest';
import type { UnmappedCodes } from '../../../../src/services/ports/UnmappedCodes.js';
import { allNotes } from '../../../support/allNotes.js';
import { freshPartnerId } from './freshIds.js';

/** What every UnmappedCodes implementation does. */
export function unmappedCodesSuite(make: () => Promise<UnmappedCodes>): void {
  it('remembers each (code, store, day) once and forgets one as it was listed, unless noted again since', async () => {
    const usage = await make();
    const partnerId = freshPartnerId();
    await usage.record(partnerId, 'S/1', '2026-03-01', ['X|1', 'Y']);
    await usage.record(partnerId, 'S/1', '2026-03-01', ['X|1']);
    await usage.record(partnerId, 'S-2', '2026-03-02', []);
    await usage.record(freshPartnerId(), 'S/1', '2026-03-01', ['Z']);
    const sorted = async () =>
      (await allNotes((after) => usage.listPage(partnerId, after, 10))).sort((a, b) => a.sourceCode.localeCompare(b.sourceCode));
    const [x, y] = await sorted();
    expect([x, y]).toEqual([
      { sourceCode: 'X|1', storeId: 'S/1', businessDate: '2026-03-01', etag: expect.any(String) as string },
      { sourceCode: 'Y', storeId: 'S/1', businessDate: '2026-03-01', etag: expect.any(String) as string },
    ]);
    await usage.remove(partnerId, x!);
    await usage.remove(partnerId, x!);
    expect((await sorted()).map((u) => u.sourceCode)).toEqual(['Y']);

    // Noted again after it was listed (a later run still holds the code back): the note stays.
    await usage.record(partnerId, 'S/1', '2026-03-01', ['Y']);
    await usage.remove(partnerId, y!);
    const [again] = await sorted();
    expect(again).toMatchObject({ sourceCode: 'Y' });
    expect(again!.etag).not.toBe(y!.etag);
    await usage.remove(partnerId, again!);
    expect(await sorted()).toEqual([]);
  });

  it("lists a partner's usages a page at a time, each once, in an order that does not change", async () => {
    const usage = await make();
    const partnerId = freshPartnerId();
    for (let day = 1; day <= 7; day++) await usage.record(partnerId, `S-${day % 3}`, `2026-03-0${day}`, ['X', 'Y']);
    const first = await usage.listPage(partnerId, undefined, 5);
    expect(first.notes).toHaveLength(5);
    expect(first.next).toEqual(expect.any(String));
    const pages = [first.notes];
    for (let after = first.next; after !== undefined;) {
      const page = await usage.listPage(partnerId, after, 5);
      pages.push(page.notes);
      after = page.next;
    }
    expect(pages.map((p) => p.length)).toEqual([5, 5, 4]);
    const listed = pages.flat().map((u) => `${u.sourceCode} ${u.storeId} ${u.businessDate}`);
    expect(new Set(listed).size).toBe(14);
    expect(listed).toEqual(
      (await allNotes((after) => usage.listPage(partnerId, after, 100))).map((u) => `${u.sourceCode} ${u.storeId} ${u.businessDate}`),
    );
    // A page that ends exactly at the end says so.
    const exact = await usage.listPage(partnerId, undefined, 14);
    expect(exact.notes).toHaveLength(14);
    expect(exact.next).toBeUndefined();
  });
}
