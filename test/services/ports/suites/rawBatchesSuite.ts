import { expect, it } from 'vitest';
import type { RawBatches } from '../../../../src/services/ports/RawBatches.js';
import { freshPartnerId } from './freshIds.js';

/** What every RawBatches implementation does. */
export function rawBatchesSuite(make: () => Promise<RawBatches>): void {
  it('stores the exact bytes once per batch id, whatever its case', async () => {
    const raw = await make();
    const partnerId = freshPartnerId();
    const body = new TextEncoder().encode('{"batch_id":"Ab-1","note":"café"}');
    expect(await raw.putOnce(partnerId, 'AB-1', body, 'sha-1')).toBe(true);
    expect(await raw.putOnce(partnerId, 'ab-1', new TextEncoder().encode('{}'), 'sha-2')).toBe(false);
    expect(Buffer.compare((await raw.get(partnerId, 'ab-1')) ?? Buffer.alloc(0), Buffer.from(body))).toBe(0);
    expect(await raw.storedHash(partnerId, 'Ab-1')).toBe('sha-1');
  });

  it("answers undefined for a batch it does not hold, or another partner's", async () => {
    const raw = await make();
    const partnerId = freshPartnerId();
    await raw.putOnce(partnerId, 'b-1', new TextEncoder().encode('{}'), 'sha');
    expect(await raw.get(freshPartnerId(), 'b-1')).toBeUndefined();
    expect(await raw.storedHash(partnerId, 'b-2')).toBeUndefined();
  });

  it('replaces a stored body only while it is the orphan named', async () => {
    const raw = await make();
    const partnerId = freshPartnerId();
    const orphan = new TextEncoder().encode('{"batch_id":"c-1","n":1}');
    const body = new TextEncoder().encode('{"batch_id":"c-1","n":2}');
    expect(await raw.replaceOrphan(partnerId, 'c-1', body, 'sha-2', 'sha-1')).toBe(false);
    expect(await raw.storedHash(partnerId, 'c-1')).toBeUndefined();
    await raw.putOnce(partnerId, 'c-1', orphan, 'sha-1');
    expect(await raw.replaceOrphan(partnerId, 'C-1', body, 'sha-2', 'sha-other')).toBe(false);
    expect(await raw.storedHash(partnerId, 'c-1')).toBe('sha-1');
    expect(await raw.replaceOrphan(partnerId, 'C-1', body, 'sha-2', 'sha-1')).toBe(true);
    expect(await raw.storedHash(partnerId, 'c-1')).toBe('sha-2');
    expect(Buffer.compare((await raw.get(partnerId, 'c-1')) ?? Buffer.alloc(0), Buffer.from(body))).toBe(0);
    // Once replaced, the old name no longer matches: a second replacement by the same name fails.
    expect(await raw.replaceOrphan(partnerId, 'c-1', orphan, 'sha-1', 'sha-1')).toBe(false);
  });
}
