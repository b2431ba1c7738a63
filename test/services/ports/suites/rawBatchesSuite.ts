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
}
