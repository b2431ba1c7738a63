import { expect, it } from 'vitest';
import type { WebhookDeadLetters } from '../../../../src/services/ports/WebhookDeadLetters.js';
import type { DeadLetter } from '../../../../src/storage/WebhookDeadLetterRepository.js';
import { freshPartnerId } from './freshIds.js';

const letter = (partnerId: string, eventId: string, deadLetteredAt: string): DeadLetter => ({
  partnerId,
  eventId,
  eventType: 'reconciliation.completed',
  targetOrigin: 'https://hooks.partner.example',
  attempts: 21,
  lastErrorClass: 'HTTP_ERROR',
  lastStatus: 503,
  createdAt: '2026-03-01T00:00:00.000Z',
  firstAttemptAt: '2026-03-01T00:00:01.000Z',
  lastAttemptAt: deadLetteredAt,
  deadLetteredAt,
});

/** What every WebhookDeadLetters implementation does. */
export function webhookDeadLettersSuite(make: () => Promise<WebhookDeadLetters>): void {
  it('lists newest first, per partner or for all, with what HQ needs and no more', async () => {
    const deadLetters = await make();
    const a = freshPartnerId();
    const b = freshPartnerId();
    await deadLetters.add(letter(a, 'evt_1', '2026-03-02T00:00:00.000Z'));
    await deadLetters.add(letter(a, 'evt_2', '2026-03-02T01:00:00.000Z'));
    await deadLetters.add(letter(b, 'evt_3', '2026-03-02T02:00:00.000Z'));
    const forA = await deadLetters.list({ partnerId: a, limit: 10 });
    expect(forA.map((d) => d.eventId)).toEqual(['evt_2', 'evt_1']);
    expect(forA[0]).toEqual(letter(a, 'evt_2', '2026-03-02T01:00:00.000Z'));
    const all = (await deadLetters.list({ limit: 1000 })).filter((d) => d.partnerId === a || d.partnerId === b);
    expect(all.map((d) => d.eventId)).toEqual(['evt_3', 'evt_2', 'evt_1']);
    expect(await deadLetters.list({ partnerId: a, limit: 1 })).toHaveLength(1);
  });

  it('gives the newest when there are more than the limit, wherever they come in the table', async () => {
    const deadLetters = await make();
    const a = freshPartnerId();
    // Stored in event-id order; their times are in no order.
    const hours = [3, 9, 1, 7, 0, 8, 2, 5, 6, 4];
    for (const [i, hour] of hours.entries()) await deadLetters.add(letter(a, `evt_${i}`, `2026-03-02T0${hour}:00:00.000Z`));
    const newest = await deadLetters.list({ partnerId: a, limit: 3 });
    expect(newest.map((d) => d.deadLetteredAt.slice(11, 13))).toEqual(['09', '08', '07']);
  });

  it('lists the ids of every dead letter', async () => {
    const deadLetters = await make();
    const a = freshPartnerId();
    const b = freshPartnerId();
    await deadLetters.add(letter(a, 'evt_1', '2026-03-02T00:00:00.000Z'));
    await deadLetters.add(letter(b, 'evt/2', '2026-03-02T01:00:00.000Z'));
    const ids = [];
    for await (const id of deadLetters.listIds()) if (id.partnerId === a || id.partnerId === b) ids.push(id);
    expect(ids.sort((x, y) => (x.eventId < y.eventId ? -1 : 1))).toEqual([
      { partnerId: b, eventId: 'evt/2' },
      { partnerId: a, eventId: 'evt_1' },
    ]);
  });

  it('gives a dead letter to one taker only, and nothing once it is gone', async () => {
    const deadLetters = await make();
    const a = freshPartnerId();
    const record = letter(a, 'evt_1', '2026-03-02T00:00:00.000Z');
    await deadLetters.add(record);
    const taken = await Promise.all([deadLetters.take(a, 'evt_1'), deadLetters.take(a, 'evt_1'), deadLetters.take(a, 'evt_1')]);
    expect(taken.filter((t) => t !== undefined)).toEqual([record]);
    expect(await deadLetters.get(a, 'evt_1')).toBeUndefined();
    expect(await deadLetters.take(a, 'evt_1')).toBeUndefined();
  });

  it('records the same event once, however often its message is retried', async () => {
    const deadLetters = await make();
    const a = freshPartnerId();
    await deadLetters.add(letter(a, 'evt_1', '2026-03-02T00:00:00.000Z'));
    await deadLetters.add(letter(a, 'evt_1', '2026-03-02T00:00:05.000Z'));
    expect(await deadLetters.list({ partnerId: a, limit: 10 })).toHaveLength(1);
    expect((await deadLetters.get(a, 'evt_1'))?.deadLetteredAt).toBe('2026-03-02T00:00:05.000Z');
    expect(await deadLetters.remove(a, 'evt_1')).toBe(true);
    expect(await deadLetters.remove(a, 'evt_1')).toBe(false);
  });

  it('keeps the optional times and status out when there were none', async () => {
    const deadLetters = await make();
    const a = freshPartnerId();
    const { lastStatus: _s, firstAttemptAt: _f, lastAttemptAt: _l, ...bare } = letter(a, 'evt_9', '2026-03-02T00:00:00.000Z');
    await deadLetters.add({ ...bare, attempts: 0, lastErrorClass: 'ENDPOINT_PAUSED' });
    expect(await deadLetters.get(a, 'evt_9')).toEqual({ ...bare, attempts: 0, lastErrorClass: 'ENDPOINT_PAUSED' });
  });
}
