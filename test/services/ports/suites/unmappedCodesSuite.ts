import { expect, it } from 'vitest';
import type { UnmappedCodes } from '../../../../src/services/ports/UnmappedCodes.js';
import { freshPartnerId } from './freshIds.js';

/** What every UnmappedCodes implementation does. */
export function unmappedCodesSuite(make: () => Promise<UnmappedCodes>): void {
  it('remembers each (code, store, day) once and forgets one on request', async () => {
    const usage = await make();
    const partnerId = freshPartnerId();
    await usage.record(partnerId, 'S/1', '2026-03-01', ['X|1', 'Y']);
    await usage.record(partnerId, 'S/1', '2026-03-01', ['X|1']);
    await usage.record(partnerId, 'S-2', '2026-03-02', []);
    await usage.record(freshPartnerId(), 'S/1', '2026-03-01', ['Z']);
    const sorted = async () => (await usage.listForPartner(partnerId)).sort((a, b) => a.sourceCode.localeCompare(b.sourceCode));
    expect(await sorted()).toEqual([
      { sourceCode: 'X|1', storeId: 'S/1', businessDate: '2026-03-01' },
      { sourceCode: 'Y', storeId: 'S/1', businessDate: '2026-03-01' },
    ]);
    await usage.remove(partnerId, { sourceCode: 'X|1', storeId: 'S/1', businessDate: '2026-03-01' });
    await usage.remove(partnerId, { sourceCode: 'X|1', storeId: 'S/1', businessDate: '2026-03-01' });
    expect((await sorted()).map((u) => u.sourceCode)).toEqual(['Y']);
  });
}
