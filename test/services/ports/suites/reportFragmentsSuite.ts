import { expect, it } from 'vitest';
import type { ReportFragments } from '../../../../src/services/ports/ReportFragments.js';
import { freshPartnerId } from './freshIds.js';

/** What every ReportFragments implementation does. */
export function reportFragmentsSuite(make: () => Promise<ReportFragments>): void {
  it('keeps the exact bytes under the batch id, whatever its case', async () => {
    const fragments = await make();
    const partnerId = freshPartnerId();
    const bytes = Uint8Array.from([0, 1, 2, 255, 254, 0x50, 0x41, 0x52, 0x31]);
    expect(await fragments.exists(partnerId, 'AB-1')).toBe(false);
    expect(await fragments.get(partnerId, 'AB-1')).toBeUndefined();
    await fragments.put(partnerId, 'AB-1', bytes);
    expect(await fragments.exists(partnerId, 'ab-1')).toBe(true);
    expect(Buffer.compare((await fragments.get(partnerId, 'Ab-1')) ?? Buffer.alloc(0), Buffer.from(bytes))).toBe(0);
  });

  it('replaces a fragment whole, a shorter one included', async () => {
    const fragments = await make();
    const partnerId = freshPartnerId();
    await fragments.put(partnerId, 'b-1', new Uint8Array(1000).fill(7));
    await fragments.put(partnerId, 'b-1', Uint8Array.from([1, 2, 3]));
    expect([...((await fragments.get(partnerId, 'b-1')) ?? [])]).toEqual([1, 2, 3]);
  });

  it("never answers with another partner's or another batch's fragment", async () => {
    const fragments = await make();
    const a = freshPartnerId();
    const b = freshPartnerId();
    await fragments.put(a, 'b-1', Uint8Array.from([1]));
    expect(await fragments.get(b, 'b-1')).toBeUndefined();
    expect(await fragments.exists(b, 'b-1')).toBe(false);
    expect(await fragments.get(a, 'b-2')).toBeUndefined();
  });
}
