import { expect, it } from 'vitest';
import type { WebhookEvents } from '../../../../src/services/ports/WebhookEvents.js';
import { EventTooLargeError, maxEventBodyBytes } from '../../../../src/storage/WebhookEventStore.js';
import { freshPartnerId } from './freshIds.js';

const createdAt = '2026-03-01T10:00:00.000Z';

/** What every WebhookEvents implementation does. */
export function webhookEventsSuite(make: () => Promise<WebhookEvents>): void {
  it('keeps the exact body, large and non-ASCII ones included, under the event id', async () => {
    const events = await make();
    const partner = freshPartnerId();
    const body = JSON.stringify({ note: '東京 ✓ "quoted" \\ back', filler: 'x'.repeat(95_000) });
    const event = { partnerId: partner, eventId: 'evt_0123', eventType: 'reconciliation.completed' as const, createdAt, body };
    expect(await events.add(event)).toBe('created');
    expect(await events.get(partner, 'evt_0123')).toEqual(event);
  });

  it('stores an event once: the same id again is the same event', async () => {
    const events = await make();
    const partner = freshPartnerId();
    const event = { partnerId: partner, eventId: 'evt_1', eventType: 'batch.failed' as const, createdAt, body: '{"a":1}' };
    await events.add(event);
    expect(await events.add({ ...event, body: '{"a":2}' })).toBe('exists');
    expect((await events.get(partner, 'evt_1'))?.body).toBe('{"a":1}');
  });

  it('keeps partners apart and forgets a removed event', async () => {
    const events = await make();
    const a = freshPartnerId();
    const b = freshPartnerId();
    await events.add({ partnerId: a, eventId: 'evt_x', eventType: 'batch.failed', createdAt, body: '{}' });
    expect(await events.get(b, 'evt_x')).toBeUndefined();
    await events.remove(a, 'evt_x');
    expect(await events.get(a, 'evt_x')).toBeUndefined();
    await events.remove(a, 'evt_x');
  });

  it("lists every partner's events created before an instant, without their bodies", async () => {
    const events = await make();
    const [a, b] = [freshPartnerId(), freshPartnerId()];
    const old = { eventType: 'batch.failed' as const, createdAt: '2020-01-01T00:00:00.000Z', body: '{"old":true}' };
    await events.add({ partnerId: a, eventId: 'evt_old_a', ...old });
    await events.add({ partnerId: b, eventId: 'evt/old b', ...old });
    await events.add({ partnerId: a, eventId: 'evt_new', eventType: 'batch.failed', createdAt: '2020-01-02T00:00:00.000Z', body: '{}' });
    const listed = [];
    for await (const event of events.listCreatedBefore('2020-01-01T12:00:00.000Z')) {
      if (event.partnerId === a || event.partnerId === b) listed.push(event);
    }
    expect(listed.sort((x, y) => (x.eventId < y.eventId ? -1 : 1))).toEqual([
      { partnerId: b, eventId: 'evt/old b', eventType: 'batch.failed', createdAt: old.createdAt },
      { partnerId: a, eventId: 'evt_old_a', eventType: 'batch.failed', createdAt: old.createdAt },
    ]);
  });

  it("restarts an event's window of attempts, keeping its body; false once the event is gone", async () => {
    const events = await make();
    const partner = freshPartnerId();
    const event = {
      partnerId: partner,
      eventId: 'evt_again',
      eventType: 'batch.failed' as const,
      createdAt: '2020-01-01T00:00:00.000Z',
      body: '{"a":1}',
    };
    await events.add(event);
    expect(await events.restartWindow(partner, 'evt_again', '2020-01-03T00:00:00.000Z')).toBe(true);
    expect(await events.get(partner, 'evt_again')).toEqual({ ...event, createdAt: '2020-01-03T00:00:00.000Z' });
    const listed = [];
    for await (const e of events.listCreatedBefore('2020-01-02T00:00:00.000Z')) if (e.partnerId === partner) listed.push(e);
    expect(listed).toEqual([]);
    await events.remove(partner, 'evt_again');
    expect(await events.restartWindow(partner, 'evt_again', '2020-01-04T00:00:00.000Z')).toBe(false);
    expect(await events.get(partner, 'evt_again')).toBeUndefined();
  });

  it('refuses a body over the limit before writing', async () => {
    const events = await make();
    const partner = freshPartnerId();
    const body = 'é'.repeat(maxEventBodyBytes / 2) + 'x';
    await expect(events.add({ partnerId: partner, eventId: 'evt_big', eventType: 'batch.failed', createdAt, body })).rejects.toThrow(
      EventTooLargeError,
    );
    expect(await events.get(partner, 'evt_big')).toBeUndefined();
  });

  it('takes a body at the limit', async () => {
    const events = await make();
    const partner = freshPartnerId();
    // Non-ASCII across chunk and request-buffer boundaries, exactly at the limit in bytes.
    const body = `x${'é'.repeat(maxEventBodyBytes / 2 - 1)}x`;
    await events.add({ partnerId: partner, eventId: 'evt_max', eventType: 'batch.failed', createdAt, body });
    expect((await events.get(partner, 'evt_max'))?.body).toBe(body);
  });
}
