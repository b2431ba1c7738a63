import { expect, it } from 'vitest';
import type { ProductIds } from '../../../../src/services/ports/ProductIds.js';
import { freshPartnerId } from './freshIds.js';

/** What every ProductIds implementation does. */
export function productIdsSuite(make: () => Promise<ProductIds>): void {
  it("lists each id the partner's uploads noted once, and no other partner's", async () => {
    const ids = await make();
    const partnerId = freshPartnerId();
    // The same id of several stores comes several times in one upload, and again in a later one.
    await ids.add(partnerId, ['P/1', 'P-2', 'P/1', 'P/1']);
    await ids.add(partnerId, ['P-2', 'P#3?']);
    await ids.add(freshPartnerId(), ['P-other']);
    await ids.add(partnerId, []);
    expect(await ids.list(partnerId)).toEqual(new Set(['P/1', 'P-2', 'P#3?']));
    expect(await ids.list(freshPartnerId())).toEqual(new Set());
  });

  it('keeps ids of any script up to 128 characters, and more ids than one transaction or one page holds', async () => {
    const ids = await make();
    const partnerId = freshPartnerId();
    const long = ['漢'.repeat(128), '😀'.repeat(128), `${'/'.repeat(127)}#`];
    const many = Array.from({ length: 1_050 }, (_, i) => `P-${String(i).padStart(5, '0')}`);
    await ids.add(partnerId, [...long, ...many]);
    expect(await ids.list(partnerId)).toEqual(new Set([...long, ...many]));
  });
}
