import { expect, it } from 'vitest';
import type { MappingPointers } from '../../../../src/services/ports/MappingPointers.js';
import { freshPartnerId } from './freshIds.js';

/** What every MappingPointers implementation does. */
export function mappingPointersSuite(make: () => Promise<MappingPointers>): void {
  it('points at the upload received last, whatever order the switches arrive in', async () => {
    const pointers = await make();
    const partnerId = freshPartnerId();
    const older = { batchId: 'map-1', receivedAt: '2026-03-01T09:00:00.000Z', updatedAt: '2026-03-01T09:00:01.000Z' };
    const newer = { batchId: 'map-2', receivedAt: '2026-03-01T10:00:00.000Z', updatedAt: '2026-03-01T10:00:01.000Z' };
    expect(await pointers.getPointer(partnerId)).toBeUndefined();
    expect(await pointers.switchTo(partnerId, newer)).toBe('applied');
    expect(await pointers.switchTo(partnerId, older)).toBe('superseded');
    // A retry of the upload in effect changes nothing.
    expect(await pointers.switchTo(partnerId, { ...newer, updatedAt: '2026-03-01T11:00:00.000Z' })).toBe('applied');
    expect(await pointers.getPointer(partnerId)).toEqual(newer);
    expect(await pointers.getPointer(freshPartnerId())).toBeUndefined();
  });
}
