import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { secretOverlapSeconds, signingSecrets } from '../../src/events/WebhookRegistration.js';
import { WebhookSecret } from '../../src/events/WebhookSecret.js';
import { tableNames } from '../../src/storage/storageNames.js';
import { WebhookDeadLetterRepository, type DeadLetter } from '../../src/storage/WebhookDeadLetterRepository.js';
import { WebhookEndpointHealthRepository } from '../../src/storage/WebhookEndpointHealthRepository.js';
import { EventTooLargeError, maxEventBodyBytes, WebhookEventStore } from '../../src/storage/WebhookEventStore.js';
import { WebhookRegistrationRepository } from '../../src/storage/WebhookRegistrationRepository.js';
import { azuriteTable } from '../support/azuriteClients.js';

let registrations: WebhookRegistrationRepository;
let health: WebhookEndpointHealthRepository;
let events: WebhookEventStore;
let deadLetters: WebhookDeadLetterRepository;

beforeAll(async () => {
  const webhooks = await azuriteTable(tableNames.webhooks);
  registrations = new WebhookRegistrationRepository(webhooks);
  health = new WebhookEndpointHealthRepository(webhooks);
  events = new WebhookEventStore(await azuriteTable(tableNames.webhookEvents));
  deadLetters = new WebhookDeadLetterRepository(await azuriteTable(tableNames.webhookDeadLetters));
});

/** Partner ids unique to each test, with characters table keys cannot hold. */
const newPartner = (): string => `p/${randomUUID()}#?`;
const now = new Date('2026-03-01T10:00:00Z');
const endpoint = { url: 'https://hooks.partner.example/pos', eventTypes: ['reconciliation.completed'] as const };

describe('webhook registrations', () => {
  it('store one endpoint per partner with its secret, read back as given', async () => {
    const partner = newPartner();
    const secret = WebhookSecret.generate();
    expect(await registrations.create(partner, endpoint, secret, now)).toBe(true);
    const stored = await registrations.get(partner);
    expect(stored).toMatchObject({ partnerId: partner, url: endpoint.url, eventTypes: ['reconciliation.completed'] });
    expect(stored?.secret.equals(secret)).toBe(true);
    expect(stored?.previousSecret).toBeUndefined();
    expect(await registrations.get(newPartner())).toBeUndefined();
  });

  it('refuse a second first registration, which would replace the secret the partner holds', async () => {
    const partner = newPartner();
    const first = WebhookSecret.generate();
    await registrations.create(partner, endpoint, first, now);
    expect(await registrations.create(partner, endpoint, WebhookSecret.generate(), now)).toBe(false);
    expect((await registrations.get(partner))?.secret.equals(first)).toBe(true);
  });

  it('replace URL and event types but keep the secret', async () => {
    const partner = newPartner();
    const secret = WebhookSecret.generate();
    await registrations.create(partner, endpoint, secret, now);
    const later = new Date(now.getTime() + 60_000);
    const changed = { url: 'https://other.partner.example/in', eventTypes: ['batch.failed', 'reconciliation.changed'] as const };
    expect(await registrations.replaceEndpoint(partner, changed, later)).toBe(true);
    const stored = await registrations.get(partner);
    expect(stored).toMatchObject({
      ...changed,
      eventTypes: [...changed.eventTypes],
      updatedAt: later.toISOString(),
      createdAt: now.toISOString(),
    });
    expect(stored?.secret.equals(secret)).toBe(true);
    expect(await registrations.replaceEndpoint(newPartner(), changed, later)).toBe(false);
  });

  it('rotate the secret, the old one signing alongside until the overlap ends', async () => {
    const partner = newPartner();
    const old = WebhookSecret.generate();
    const next = WebhookSecret.generate();
    await registrations.create(partner, endpoint, old, now);
    expect(await registrations.rotateSecret(partner, next, now, secretOverlapSeconds)).toBe(true);
    const stored = await registrations.get(partner);
    if (!stored) throw new Error('registration vanished');
    expect(stored.secret.equals(next)).toBe(true);
    expect(stored.previousSecret?.secret.equals(old)).toBe(true);
    const during = signingSecrets(stored, new Date(now.getTime() + (secretOverlapSeconds - 1) * 1000));
    expect(during.map((s) => s.reveal())).toEqual([next.reveal(), old.reveal()]);
    const after = signingSecrets(stored, new Date(now.getTime() + secretOverlapSeconds * 1000));
    expect(after.map((s) => s.reveal())).toEqual([next.reveal()]);
    expect(await registrations.rotateSecret(newPartner(), next, now, secretOverlapSeconds)).toBe(false);
  });

  it('keep only the latest two secrets when rotations follow each other, concurrent ones included', async () => {
    const partner = newPartner();
    await registrations.create(partner, endpoint, WebhookSecret.generate(), now);
    const a = WebhookSecret.generate();
    const b = WebhookSecret.generate();
    await Promise.all([registrations.rotateSecret(partner, a, now, 60), registrations.rotateSecret(partner, b, now, 60)]);
    const stored = await registrations.get(partner);
    if (!stored) throw new Error('registration vanished');
    // Whichever rotation came last is current and the other is the previous one: neither is lost.
    const pair = [stored.secret.reveal(), stored.previousSecret?.secret.reveal()].sort();
    expect(pair).toEqual([a.reveal(), b.reveal()].sort());
  });

  it('remove the endpoint, once', async () => {
    const partner = newPartner();
    await registrations.create(partner, endpoint, WebhookSecret.generate(), now);
    expect(await registrations.remove(partner)).toBe(true);
    expect(await registrations.get(partner)).toBeUndefined();
    expect(await registrations.remove(partner)).toBe(false);
  });

  it('list endpoints only, not the health rows beside them', async () => {
    const partner = newPartner();
    await registrations.create(partner, endpoint, WebhookSecret.generate(), now);
    await health.recordFailure(partner, 'TIMEOUT', now);
    const listed = (await registrations.list()).filter((r) => r.partnerId === partner);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain((await registrations.get(partner))?.secret.reveal());
  });
});

describe('endpoint health', () => {
  it('is healthy (no row) until a failure, counts failures in a row, and resets', async () => {
    const partner = newPartner();
    expect(await health.get(partner)).toBeUndefined();
    const pause = new Date(now.getTime() + 20_000);
    expect(await health.recordFailure(partner, 'TIMEOUT', now)).toBe(1);
    expect(await health.recordFailure(partner, 'HTTP_ERROR', pause)).toBe(2);
    expect(await health.get(partner)).toMatchObject({
      consecutiveFailures: 2,
      lastErrorClass: 'HTTP_ERROR',
      pausedUntil: pause.toISOString(),
    });
    await health.reset(partner);
    expect(await health.get(partner)).toBeUndefined();
    await health.reset(partner);
  });

  it('counts concurrent failures without losing one', async () => {
    const partner = newPartner();
    await Promise.all(Array.from({ length: 5 }, () => health.recordFailure(partner, 'NETWORK', now)));
    expect((await health.get(partner))?.consecutiveFailures).toBe(5);
  });

  it('gives the probe of a failing endpoint to one event only', async () => {
    const partner = newPartner();
    await health.recordFailure(partner, 'TIMEOUT', now);
    const seen = await health.get(partner);
    if (!seen) throw new Error('no health row');
    const until = new Date(now.getTime() + 15_000);
    const claims = await Promise.all([health.claimProbe(partner, seen, until), health.claimProbe(partner, seen, until)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await health.get(partner))?.pausedUntil).toBe(until.toISOString());
  });
});

describe('the event store', () => {
  it('keeps the exact body, large and non-ASCII ones included, under the event id', async () => {
    const partner = newPartner();
    const body = JSON.stringify({ note: '東京 ✓ "quoted" \\ back', filler: 'x'.repeat(95_000) });
    const event = {
      partnerId: partner,
      eventId: 'evt_0123',
      eventType: 'reconciliation.completed' as const,
      createdAt: now.toISOString(),
      body,
    };
    expect(await events.add(event)).toBe('created');
    expect(await events.get(partner, 'evt_0123')).toEqual(event);
  });

  it('stores an event once: the same id again is the same event', async () => {
    const partner = newPartner();
    const event = {
      partnerId: partner,
      eventId: 'evt_1',
      eventType: 'batch.failed' as const,
      createdAt: now.toISOString(),
      body: '{"a":1}',
    };
    await events.add(event);
    expect(await events.add({ ...event, body: '{"a":2}' })).toBe('exists');
    expect((await events.get(partner, 'evt_1'))?.body).toBe('{"a":1}');
  });

  it('keeps partners apart and forgets a removed event', async () => {
    const a = newPartner();
    const b = newPartner();
    await events.add({ partnerId: a, eventId: 'evt_x', eventType: 'batch.failed', createdAt: now.toISOString(), body: '{}' });
    expect(await events.get(b, 'evt_x')).toBeUndefined();
    await events.remove(a, 'evt_x');
    expect(await events.get(a, 'evt_x')).toBeUndefined();
    await events.remove(a, 'evt_x');
  });

  it('refuses a body over the limit before writing', async () => {
    const partner = newPartner();
    const body = 'é'.repeat(maxEventBodyBytes / 2) + 'x';
    await expect(
      events.add({ partnerId: partner, eventId: 'evt_big', eventType: 'batch.failed', createdAt: now.toISOString(), body }),
    ).rejects.toThrow(EventTooLargeError);
    expect(await events.get(partner, 'evt_big')).toBeUndefined();
  });

  it('takes a body at the limit', async () => {
    const partner = newPartner();
    // Non-ASCII across chunk and request-buffer boundaries, exactly at the limit in bytes.
    const body = `x${'é'.repeat(maxEventBodyBytes / 2 - 1)}x`;
    await events.add({ partnerId: partner, eventId: 'evt_max', eventType: 'batch.failed', createdAt: now.toISOString(), body });
    expect((await events.get(partner, 'evt_max'))?.body).toBe(body);
  });
});

describe('dead letters', () => {
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

  it('are listed newest first, per partner or for all, with what HQ needs and no more', async () => {
    const a = newPartner();
    const b = newPartner();
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

  it('record the same event once, however often its message is retried', async () => {
    const a = newPartner();
    await deadLetters.add(letter(a, 'evt_1', '2026-03-02T00:00:00.000Z'));
    await deadLetters.add(letter(a, 'evt_1', '2026-03-02T00:00:05.000Z'));
    expect(await deadLetters.list({ partnerId: a, limit: 10 })).toHaveLength(1);
    expect((await deadLetters.get(a, 'evt_1'))?.deadLetteredAt).toBe('2026-03-02T00:00:05.000Z');
    expect(await deadLetters.remove(a, 'evt_1')).toBe(true);
    expect(await deadLetters.remove(a, 'evt_1')).toBe(false);
  });

  it('keep the optional times and status out when there were none', async () => {
    const a = newPartner();
    const { lastStatus: _s, firstAttemptAt: _f, lastAttemptAt: _l, ...bare } = letter(a, 'evt_9', '2026-03-02T00:00:00.000Z');
    await deadLetters.add({ ...bare, attempts: 0, lastErrorClass: 'ENDPOINT_PAUSED' });
    expect(await deadLetters.get(a, 'evt_9')).toEqual({ ...bare, attempts: 0, lastErrorClass: 'ENDPOINT_PAUSED' });
  });
});
