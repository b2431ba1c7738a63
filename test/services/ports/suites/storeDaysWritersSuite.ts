import { expect, it } from 'vitest';
import type { StoreDaysWriters } from '../../../../src/services/ports/StoreDaysWriters.js';
import { freshPartnerId } from './freshIds.js';

/** What every StoreDaysWriters implementation does. */
export function storeDaysWritersSuite(make: () => Promise<StoreDaysWriters>): void {
  it("creates a date's row once, and writes it again only against the ETag it was read with", async () => {
    const writers = await make();
    const partnerId = freshPartnerId();
    const date = '2026-03-01';
    expect(await writers.read(partnerId, date)).toBeUndefined();
    const held = { leaseId: 'w-1', leaseUntil: '2026-03-02T10:00:00.000Z', dirty: false, started: 1, finished: 0 };
    const created = await writers.write(partnerId, date, held, undefined);
    expect(created).toEqual(expect.any(String));
    // Another writer that also found no row loses.
    expect(await writers.write(partnerId, date, { ...held, leaseId: 'w-2' }, undefined)).toBeUndefined();
    const read = await writers.read(partnerId, date);
    // The ETag a write hands back is the row's.
    expect(read).toEqual({ ...held, etag: created });

    const released = await writers.write(partnerId, date, { dirty: true, started: 1, finished: 1 }, read!.etag);
    expect(released).toEqual(expect.any(String));
    // The ETag read before that write is stale now.
    expect(await writers.write(partnerId, date, { ...held, dirty: false }, read!.etag)).toBeUndefined();
    expect(await writers.read(partnerId, date)).toEqual({ dirty: true, started: 1, finished: 1, etag: released });
    expect(released).not.toBe(read!.etag);

    // Other dates and partners have rows of their own.
    expect(await writers.read(partnerId, '2026-03-02')).toBeUndefined();
    expect(await writers.read(freshPartnerId(), date)).toBeUndefined();
  });
}
