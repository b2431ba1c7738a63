import { afterEach, describe, expect, it, vi } from 'vitest';
import { reconciliationSource, storeDaySubject } from '../../../src/events/buildCloudEvent.js';
import { eventIdFor } from '../../../src/events/eventIdFor.js';
import type { EventType } from '../../../src/events/eventTypes.js';
import type { WebhookBodyWithSecret } from '../../../src/services/webhooks/WebhookRegistrar.js';
import { startWebhookReceiver, type ReceiverBehaviour, type WebhookReceiver } from '../../support/webhookReceiver.js';
import { independentlyVerified, newPartnerId, present, startWebhookKit, type WebhookKit } from './webhookKit.js';

const opened: WebhookReceiver[] = [];
async function receiver(behaviour: ReceiverBehaviour): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver(behaviour);
  opened.push(r);
  return r;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((r) => r.close()));
});

const result = (storeId: string) => ({
  store_id: storeId,
  business_date: '2026-02-28',
  status: 'MISMATCHED',
  checked_at: '2026-03-01T00:00:00.000Z',
  expected: { net_sales: '100.00' },
  actual: { net_sales: '99.50' },
  differences: ['net_sales'],
  diagnosis: null,
});

/** Registers the partner's endpoint and returns its secret. */
async function register(
  kit: WebhookKit,
  partnerId: string,
  url: string,
  eventTypes: EventType[] = ['reconciliation.completed'],
): Promise<string> {
  const answer = (await kit.registrar.register(partnerId, { url, eventTypes })) as WebhookBodyWithSecret;
  return answer.secret;
}

/**
 * Longer than any test runs: a hanging attempt ends only when its test closes the receiver, so the
 * order of events does not depend on how fast a busy machine gets through the steps between.
 */
const neverTimesOut = 120_000;

/** Two partners, each with its endpoint registered: one that never answers and one that answers 200. */
async function hangingAndHealthyPartners(kit: WebhookKit) {
  const hanging = await receiver(() => 'hang');
  const healthy = await receiver(() => 200);
  const slowPartner = newPartnerId();
  const otherPartner = newPartnerId();
  await register(kit, slowPartner, hanging.url);
  await register(kit, otherPartner, healthy.url);
  return { hanging, healthy, slowPartner, otherPartner };
}

async function publish(kit: WebhookKit, partnerId: string, storeId: string, type: EventType = 'reconciliation.completed'): Promise<string> {
  const id = eventIdFor([partnerId, type, storeId, '2026-02-28']);
  await kit.publisher.publish(partnerId, {
    id,
    type,
    source: reconciliationSource,
    subject: storeDaySubject(storeId, '2026-02-28'),
    time: kit.clock.now(),
    data: result(storeId),
  });
  return id;
}

/** Publishes an event with empty data, for tests of whether it is published at all; its outcome. */
function publishBare(kit: WebhookKit, partnerId: string, id: string, type: EventType = 'reconciliation.completed') {
  return kit.publisher.publish(partnerId, {
    id,
    type,
    source: type === 'batch.failed' ? '/pos/v1/trade-records' : reconciliationSource,
    time: kit.clock.now(),
    data: {},
  });
}

/** Runs queued messages in visibility order, moving the clock, until the queue is empty. */
async function drain(kit: WebhookKit): Promise<string[]> {
  const outcomes: string[] = [];
  for (let message = kit.queue.next(); message; message = kit.queue.next()) {
    outcomes.push(await kit.delivery.deliver(message));
    expect(outcomes.length).toBeLessThan(200);
  }
  return outcomes;
}

describe('a delivery that fails three times, then succeeds', () => {
  it('reaches the receiver four times with the same event id and body, each attempt signed anew', async () => {
    const kit = await startWebhookKit();
    const r = await receiver((n) => (n <= 3 ? 503 : 204));
    const partner = newPartnerId();
    const secret = await register(kit, partner, r.url);
    const eventId = await publish(kit, partner, 'S1');
    const createdAt = kit.clock.ms;

    const outcomes = await drain(kit);

    expect(r.received).toHaveLength(4);
    expect(outcomes.at(-1)).toContain('delivered on attempt 4 (status 204)');
    const first = present(r.received[0], 'first request');
    for (const [i, request] of r.received.entries()) {
      expect(request.headers['webhook-id']).toBe(eventId);
      expect(request.body.equals(first.body)).toBe(true);
      expect(request.headers['content-type']).toBe('application/cloudevents+json; charset=utf-8');
      expect(independentlyVerified(secret, request.headers, request.body), `attempt ${i + 1}`).toBe(true);
    }
    // The timestamp is each attempt's own, following the retry delays (10 s, 20 s, 40 s, ±25 %).
    const times = r.received.map((q) => Number(q.headers['webhook-timestamp']) - createdAt / 1000);
    expect(times[0]).toBe(0);
    const gaps = times.slice(1).map((t, i) => t - present(times[i], 'time'));
    [10, 20, 40].forEach((base, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(base * 0.75);
      expect(gaps[i]).toBeLessThanOrEqual(base * 1.25 + 1);
    });
    const body = JSON.parse(first.body.toString('utf8')) as Record<string, unknown>;
    expect(body).toMatchObject({ specversion: '1.0', id: eventId, type: 'com.example.pos.reconciliation.completed', data: result('S1') });

    expect(await kit.events.get(partner, eventId)).toBeUndefined();
    expect(await kit.health.get(partner)).toBeUndefined();
    expect(await kit.deadLetters.get(partner, eventId)).toBeUndefined();
  });
});

describe('a receiver that always fails', () => {
  it('is tried for 24 hours, the last attempt at the 24-hour mark, then the event is dead-lettered for HQ', async () => {
    const kit = await startWebhookKit();
    const r = await receiver(() => 500);
    const partner = newPartnerId();
    await register(kit, partner, `${r.url}?token=partner-secret-token`);
    const createdAt = kit.clock.ms;
    const eventId = await publish(kit, partner, 'S2');

    const outcomes = await drain(kit);

    expect(outcomes.at(-1)).toContain('dead-lettered');
    const attempts = r.received.length;
    expect(attempts).toBeGreaterThanOrEqual(18);
    expect(attempts).toBeLessThanOrEqual(30);
    expect(new Set(r.received.map((q) => q.headers['webhook-id']))).toEqual(new Set([eventId]));
    const lastAt = Number(present(r.received.at(-1), 'last request').headers['webhook-timestamp']);
    expect(lastAt).toBe(createdAt / 1000 + 24 * 3600);
    const deadLetter = await kit.deadLetters.get(partner, eventId);
    expect(deadLetter).toEqual({
      partnerId: partner,
      eventId,
      eventType: 'reconciliation.completed',
      targetOrigin: `http://127.0.0.1:${r.port}`,
      attempts,
      lastErrorClass: 'HTTP_ERROR',
      lastStatus: 500,
      createdAt: new Date(createdAt).toISOString(),
      firstAttemptAt: new Date(createdAt).toISOString(),
      lastAttemptAt: new Date(lastAt * 1000).toISOString(),
      deadLetteredAt: new Date(kit.clock.ms).toISOString(),
    });
    // The body stays for a resend; nothing of the URL's query (a partner token) is in the record.
    expect(await kit.events.get(partner, eventId)).toBeDefined();
    expect(JSON.stringify(deadLetter)).not.toContain('partner-secret-token');
    expect(kit.queue.size).toBe(0);
  });

  it('dead-letters at once on 410 Gone and disables the endpoint until the partner registers it again', async () => {
    const kit = await startWebhookKit();
    let answer = 410;
    const r = await receiver(() => answer);
    const partner = newPartnerId();
    await register(kit, partner, r.url);
    const eventId = await publish(kit, partner, 'S3');
    const queuedBehind = await publish(kit, partner, 'S4');
    const outcomes = await drain(kit);
    expect(r.received).toHaveLength(1);
    expect(await kit.deadLetters.get(partner, eventId)).toMatchObject({ attempts: 1, lastErrorClass: 'GONE', lastStatus: 410 });
    expect(outcomes[0]).toContain('endpoint disabled until the partner registers it again');
    // The event queued behind it is not sent to an endpoint that asked for no more, nor kept.
    expect(outcomes[1]).toContain('dropped, the endpoint is disabled since it answered 410 Gone');
    expect(await kit.events.get(partner, queuedBehind)).toBeUndefined();
    expect(await kit.deadLetters.get(partner, queuedBehind)).toBeUndefined();
    const disabledAt = (await kit.registrar.get(partner))?.disabled_at;
    expect(disabledAt).toBe(kit.clock.now().toISOString());

    // While disabled nothing is published; the partner's GET says since when.
    expect(await publishBare(kit, partner, 'evt_while_disabled')).toBe('endpoint-disabled');
    expect(await kit.events.get(partner, 'evt_while_disabled')).toBeUndefined();
    expect(kit.queue.size).toBe(0);

    // Registered again at the same URL: enabled, and not paused by the 410's failure.
    answer = 200;
    await register(kit, partner, r.url);
    expect((await kit.registrar.get(partner))?.disabled_at).toBeNull();
    const after = await publish(kit, partner, 'S5');
    expect(await drain(kit)).toEqual([expect.stringContaining('delivered on attempt 1') as string]);
    expect(r.received.map((request) => request.headers['webhook-id'])).toEqual([eventId, after]);
  });

  it("waits as long as the receiver's Retry-After asks", async () => {
    const kit = await startWebhookKit();
    const r = await receiver((n) => (n === 1 ? { status: 429, headers: { 'retry-after': '900' } } : 200));
    const partner = newPartnerId();
    await register(kit, partner, r.url);
    await publish(kit, partner, 'S4');
    await drain(kit);
    expect(r.received).toHaveLength(2);
    const [one, two] = r.received.map((q) => Number(q.headers['webhook-timestamp']));
    expect(present(two, 'second') - present(one, 'first')).toBe(900);
  });
});

describe("one partner's slow endpoint and another partner", () => {
  it('a hanging receiver does not delay the other partner, and its backlog waits without attempts', async () => {
    const kit = await startWebhookKit({ policy: { attemptTimeoutMs: neverTimesOut } });
    const { hanging, healthy, slowPartner, otherPartner } = await hangingAndHealthyPartners(kit);
    await publish(kit, slowPartner, 'A1');
    await publish(kit, otherPartner, 'B1');

    // The host runs the visible messages of a batch side by side.
    const [first, second] = kit.queue.takeVisible();
    let slowSettled = false;
    const slow = kit.delivery.deliver(present(first, 'first message')).finally(() => {
      slowSettled = true;
    });
    const fast = await kit.delivery.deliver(present(second, 'second message'));
    // Delivered while the other partner's attempt still hangs: it did not wait for that one.
    expect(fast).toContain('delivered on attempt 1');
    expect(healthy.received).toHaveLength(1);
    expect(slowSettled).toBe(false);
    await vi.waitFor(() => {
      expect(hanging.received).toHaveLength(1);
    }, 30_000);
    // The receiver drops the hanging connection: the attempt fails and pauses the endpoint.
    await hanging.close();
    expect(await slow).toContain('attempt 1 failed (NETWORK)');

    // More events for both partners while the slow endpoint is paused: the slow partner's wait in
    // the queue without an attempt each, the other partner's go straight through.
    for (const store of ['A2', 'A3', 'A4', 'A5', 'A6']) await publish(kit, slowPartner, store);
    for (const store of ['B2', 'B3']) await publish(kit, otherPartner, store);
    const outcomes = await Promise.all(kit.queue.takeVisible().map((m) => kit.delivery.deliver(m)));
    // No attempt at the paused endpoint: its one connection is still the first attempt's.
    expect(outcomes.filter((o) => o.includes('endpoint paused'))).toHaveLength(5);
    expect(healthy.received).toHaveLength(3);
    expect(hanging.connections).toBe(1);
  });

  it('when the pause ends one event probes the endpoint, and on success the rest follow', async () => {
    const kit = await startWebhookKit({ policy: { attemptTimeoutMs: 1_000 } });
    let down = true;
    const r = await receiver(() => (down ? 503 : 200));
    const partner = newPartnerId();
    await register(kit, partner, r.url);
    await publish(kit, partner, 'P1');
    await kit.delivery.deliver(present(kit.queue.takeVisible()[0], 'message'));
    for (const store of ['P2', 'P3', 'P4']) await publish(kit, partner, store);
    await Promise.all(kit.queue.takeVisible().map((m) => kit.delivery.deliver(m)));
    expect(r.received).toHaveLength(1);

    down = false;
    const outcomes = await drain(kit);
    // P1 is the probe (its second attempt); the three that waited follow it.
    expect(outcomes[0]).toContain('delivered on attempt 2');
    expect(r.received).toHaveLength(5);
    expect(new Set(r.received.map((q) => JSON.parse(q.body.toString()) as { subject: string }).map((b) => b.subject))).toEqual(
      new Set(['P1', 'P2', 'P3', 'P4'].map((s) => `${s}/2026-02-28`)),
    );
    expect(await kit.health.get(partner)).toBeUndefined();
  });
});

describe('attempts per partner at once', () => {
  it('a burst for one slow endpoint takes at most partnerConcurrency slots; the rest go back to the queue, not an attempt each', async () => {
    const kit = await startWebhookKit({ policy: { attemptTimeoutMs: neverTimesOut, partnerConcurrency: 2, busyRetrySeconds: 7 } });
    const { hanging, healthy, slowPartner, otherPartner } = await hangingAndHealthyPartners(kit);
    for (const store of ['C1', 'C2', 'C3', 'C4']) await publish(kit, slowPartner, store);
    await publish(kit, otherPartner, 'D1');

    const runs = kit.queue.takeVisible().map((m) => kit.delivery.deliver(m));
    // Everything but the two hanging attempts settles while they hang; then the receiver lets go.
    await vi.waitFor(() => {
      expect(kit.queue.sent.filter((entry) => entry.delaySeconds === 7)).toHaveLength(2);
      expect(healthy.received).toHaveLength(1);
      expect(hanging.received).toHaveLength(2);
    }, 30_000);
    await hanging.close();
    const outcomes = await Promise.all(runs);
    expect(outcomes.filter((o) => o.includes('attempt 1 failed (NETWORK)'))).toHaveLength(2);
    expect(outcomes.filter((o) => o.includes('2 attempts to this endpoint running; waits 7 s'))).toHaveLength(2);
    expect(outcomes.filter((o) => o.includes('delivered on attempt 1'))).toHaveLength(1);
    expect(hanging.received).toHaveLength(2);
    // The two sent back are the same events, not yet attempted.
    const requeued = kit.queue.sent.filter((entry) => entry.delaySeconds === 7);
    expect(requeued.map((entry) => entry.message.attempts)).toEqual([0, 0]);
    expect(requeued.map((entry) => entry.message.busyReturns)).toEqual([1, 1]);
  });

  it('an event sent back again and again waits twice as long each time, up to the bound, and from the start after an attempt', async () => {
    const kit = await startWebhookKit({
      policy: { attemptTimeoutMs: neverTimesOut, partnerConcurrency: 1, busyRetrySeconds: 5, maxBusyRetrySeconds: 30 },
    });
    const { hanging, slowPartner } = await hangingAndHealthyPartners(kit);
    await publish(kit, slowPartner, 'H1');
    await publish(kit, slowPartner, 'H2');
    const [first, second] = kit.queue.takeVisible();
    // The first takes the one slot (its endpoint hangs); the second keeps coming back meanwhile.
    const holding = kit.delivery.deliver(first!);
    await vi.waitFor(() => {
      expect(hanging.received).toHaveLength(1);
    }, 30_000);
    const waits: number[] = [];
    let message = second!;
    for (let i = 0; i < 5; i++) {
      await kit.delivery.deliver(message);
      const sentBack = kit.queue.sent.at(-1)!;
      waits.push(sentBack.delaySeconds);
      message = sentBack.message;
    }
    expect(waits).toEqual([5, 10, 20, 30, 30]);
    expect(message.busyReturns).toBe(5);
    // The receiver goes away: the first attempt fails and pauses the endpoint. Once the pause is
    // over the event probes it (and fails too); its retry starts the busy waits afresh.
    await hanging.close();
    expect(await holding).toContain('attempt 1 failed (NETWORK)');
    kit.clock.advance(10 * 60);
    expect(await kit.delivery.deliver(message)).toContain('attempt 1 failed (NETWORK)');
    const retried = kit.queue.sent.at(-1)!.message;
    expect(retried).toMatchObject({ eventId: message.eventId, attempts: 1 });
    expect(retried.busyReturns).toBeUndefined();
  });

  it('an event sent back past its retry window is dead-lettered, not sent round for ever', async () => {
    const kit = await startWebhookKit({ policy: { attemptTimeoutMs: neverTimesOut, partnerConcurrency: 1, maxAgeSeconds: 600 } });
    const { hanging, slowPartner } = await hangingAndHealthyPartners(kit);
    await publish(kit, slowPartner, 'B1');
    const waiting = await publish(kit, slowPartner, 'B2');
    const [first, second] = kit.queue.takeVisible();
    const holding = kit.delivery.deliver(first!);
    await vi.waitFor(() => {
      expect(hanging.received).toHaveLength(1);
    }, 30_000);
    expect(await kit.delivery.deliver(second!)).toContain('1 attempts to this endpoint running; waits');
    // The slot stays taken past the event's window: the next return gives it up to HQ.
    kit.clock.advance(601);
    expect(await kit.delivery.deliver(kit.queue.sent.at(-1)!.message)).toContain('past the retry window, dead-lettered');
    expect(await kit.deadLetters.get(slowPartner, waiting)).toMatchObject({ attempts: 0, lastErrorClass: 'ENDPOINT_BUSY' });
    expect(await kit.events.get(slowPartner, waiting)).toBeDefined();
    await hanging.close();
    await holding;
  });
});

/**
 * Partners whose endpoints are named hosts on the local receiver: `slow.example` resolves at once
 * until `hang()`, then its name server never answers (until `letGo()`); any other name resolves at once.
 */
async function namedEndpoints(atOnce: number) {
  const healthy = await receiver(() => 200);
  const port = new URL(healthy.url).port;
  let hanging = false;
  let slowLookups = 0;
  const held: (() => void)[] = [];
  const kit = await startWebhookKit({
    lookups: { atOnce, timeoutMs: 1_000 },
    resolve: (host) => {
      if (host !== 'slow.example' || !hanging) return Promise.resolve(['127.0.0.1']);
      slowLookups += 1;
      return new Promise((answer) =>
        held.push(() => {
          answer(['127.0.0.1']);
        }),
      );
    },
  });
  const slowPartner = newPartnerId();
  const otherPartner = newPartnerId();
  await register(kit, slowPartner, `http://slow.example:${port}/`);
  await register(kit, otherPartner, `http://other.example:${port}/`);
  return {
    kit,
    healthy,
    slowPartner,
    otherPartner,
    hang: () => (hanging = true),
    slowLookups: () => slowLookups,
    letGo: () => {
      held.splice(0).forEach((answer) => {
        answer();
      });
    },
  };
}

describe('host-name lookups', () => {
  it("a partner's hanging name server holds one lookup turn however many of its events are sent", async () => {
    const { kit, healthy, slowPartner, otherPartner, hang, slowLookups, letGo } = await namedEndpoints(2);
    hang();
    await publish(kit, slowPartner, 'S1');
    await publish(kit, slowPartner, 'S2');
    const slowEvents = kit.queue.takeVisible();
    // Both of the slow partner's events look its name up at once, and share that one lookup.
    const slow = await Promise.all(slowEvents.map((m) => kit.delivery.deliver(m)));
    expect(slow.map((o) => o.includes('attempt 1 failed (DNS)'))).toEqual([true, true]);
    expect(slowLookups()).toBe(1);
    // The lookup still holds its turn; the other partner's name takes the one left.
    await publish(kit, otherPartner, 'O1');
    const [other] = kit.queue.takeVisible();
    expect(await kit.delivery.deliver(other!)).toContain('delivered on attempt 1');
    expect(healthy.received).toHaveLength(1);
    letGo();
  });

  it("an event whose lookup gets no turn goes back to the queue: not an attempt, and not its endpoint's failure", async () => {
    const { kit, slowPartner, otherPartner, hang, letGo } = await namedEndpoints(1);
    hang();
    await publish(kit, slowPartner, 'S1');
    const [slow] = kit.queue.takeVisible();
    expect(await kit.delivery.deliver(slow!)).toContain('attempt 1 failed (DNS)');
    await publish(kit, otherPartner, 'O1');
    const [other] = kit.queue.takeVisible();
    expect(await kit.delivery.deliver(other!)).toContain('host-name lookups all taken; waits 5 s');
    expect(kit.queue.sent.at(-1)).toMatchObject({ delaySeconds: 5, message: { eventId: other!.eventId, attempts: 0, busyReturns: 1 } });
    expect(await kit.health.get(otherPartner)).toBeUndefined();
    // A registration meanwhile is asked to retry, not told its URL does not resolve.
    await expect(
      kit.registrar.register(newPartnerId(), { url: 'http://third.example/', eventTypes: ['batch.failed'] }),
    ).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      retryAfterSeconds: 5,
    });
    letGo();
  });
});

describe('subscriptions and secrets at delivery time', () => {
  it('delivers only the event types the endpoint takes', async () => {
    const kit = await startWebhookKit();
    const r = await receiver(() => 200);
    const partner = newPartnerId();
    await register(kit, partner, r.url, ['batch.failed']);
    expect(await publishBare(kit, partner, 'evt_x')).toBe('not-subscribed');
    expect(kit.queue.size).toBe(0);
    expect(await kit.events.get(partner, 'evt_x')).toBeUndefined();
    expect(await publishBare(kit, newPartnerId(), 'evt_y', 'batch.failed')).toBe('not-subscribed');
  });

  it('drops a pending event when the endpoint is removed or stops taking its type', async () => {
    const kit = await startWebhookKit();
    const r = await receiver(() => 200);
    const removed = newPartnerId();
    const narrowed = newPartnerId();
    await register(kit, removed, r.url);
    await register(kit, narrowed, r.url);
    const e1 = await publish(kit, removed, 'D1');
    const e2 = await publish(kit, narrowed, 'D2');
    await kit.registrar.remove(removed);
    await kit.registrar.register(narrowed, { url: r.url, eventTypes: ['batch.failed'] });
    const outcomes = await drain(kit);
    expect(outcomes.every((o) => o.includes('dropped'))).toBe(true);
    expect(r.received).toHaveLength(0);
    expect(await kit.events.get(removed, e1)).toBeUndefined();
    expect(await kit.events.get(narrowed, e2)).toBeUndefined();
  });

  it('drops an event queued for a removed endpoint when the partner registers anew before its attempt', async () => {
    const kit = await startWebhookKit();
    const old = await receiver(() => 503);
    const fresh = await receiver(() => 200);
    const partner = newPartnerId();
    await register(kit, partner, old.url);
    const pending = await publish(kit, partner, 'G1');
    // The first attempt fails; the partner removes the endpoint and registers another, with a new secret.
    expect(await kit.delivery.deliver(present(kit.queue.next(), 'the first message'))).toContain('failed');
    await kit.registrar.remove(partner);
    kit.clock.advance(1);
    const secret = await register(kit, partner, fresh.url);
    const after = await publish(kit, partner, 'G2');
    const outcomes = await drain(kit);
    expect(outcomes).toContainEqual(
      expect.stringContaining(`event ${pending} of partner ${partner}: dropped, the endpoint was registered anew`),
    );
    expect(await kit.events.get(partner, pending)).toBeUndefined();
    expect(await kit.deadLetters.get(partner, pending)).toBeUndefined();
    // Only the event published for the new registration reaches it, signed with its secret.
    expect(fresh.received.map((request) => request.headers['webhook-id'])).toEqual([after]);
    expect(independentlyVerified(secret, fresh.received[0]!.headers, fresh.received[0]!.body)).toBe(true);
    expect(old.received).toHaveLength(1);
  });

  it('drops an event queued before a 410 when the endpoint is registered again; a replace or a rotation keeps it', async () => {
    const kit = await startWebhookKit();
    const r = await receiver(() => 200);
    const partner = newPartnerId();
    await register(kit, partner, r.url);
    const kept = await publish(kit, partner, 'K1');
    await kit.registrar.register(partner, { url: `${r.url}/moved`, eventTypes: ['reconciliation.completed', 'batch.failed'] });
    await kit.registrar.rotateSecret(partner);
    expect(await drain(kit)).toEqual([expect.stringContaining(`event ${kept} of partner ${partner}: delivered`) as string]);

    const queued = await publish(kit, partner, 'K2');
    // Another event's attempt was answered 410 Gone meanwhile, and the partner registered again.
    const registration = present(await kit.registrations.get(partner), 'the registration');
    expect(await kit.registrations.disable(partner, registration.updatedAt, kit.clock.now())).toBe(true);
    kit.clock.advance(1);
    await register(kit, partner, r.url);
    expect(await drain(kit)).toEqual([expect.stringContaining('dropped, the endpoint was registered anew') as string]);
    expect(r.received.map((request) => request.headers['webhook-id'])).toEqual([kept]);
    expect(await kit.events.get(partner, queued)).toBeUndefined();
  });

  it('delivers a message queued before messages named the registration', async () => {
    const kit = await startWebhookKit();
    const r = await receiver(() => 200);
    const partner = newPartnerId();
    await register(kit, partner, r.url);
    const eventId = await publish(kit, partner, 'O1');
    const { generation: _new, ...older } = present(kit.queue.next(), 'the message');
    expect(await kit.delivery.deliver(older)).toContain('delivered on attempt 1');
    expect(r.received.map((request) => request.headers['webhook-id'])).toEqual([eventId]);
  });

  it('sends nothing of a partner HQ deactivated: queued events are dropped, new ones are not published', async () => {
    const kit = await startWebhookKit();
    const r = await receiver(() => 200);
    const partner = newPartnerId();
    expect(await kit.partners.create(partner, 'Deactivated', kit.clock.now())).toBe(true);
    await register(kit, partner, r.url);
    const queued = await publish(kit, partner, 'D1');
    expect(await kit.partners.update(partner, { status: 'INACTIVE' })).toBe(true);
    expect(await drain(kit)).toEqual([expect.stringContaining('dropped, the partner is deactivated') as string]);
    expect(await kit.events.get(partner, queued)).toBeUndefined();
    expect(await publishBare(kit, partner, 'evt_inactive')).toBe('partner-inactive');
    expect(await kit.events.get(partner, 'evt_inactive')).toBeUndefined();
    expect(kit.queue.size).toBe(0);
    expect(r.received).toHaveLength(0);

    // Active again: events flow as before.
    await kit.partners.update(partner, { status: 'ACTIVE' });
    await publish(kit, partner, 'D2');
    await drain(kit);
    expect(r.received).toHaveLength(1);
  });

  it('sends to the current URL when the partner changed it after the event', async () => {
    const kit = await startWebhookKit();
    const old = await receiver(() => 200);
    const current = await receiver(() => 200);
    const partner = newPartnerId();
    await register(kit, partner, old.url);
    await publish(kit, partner, 'U1');
    await kit.registrar.register(partner, { url: current.url, eventTypes: ['reconciliation.completed'] });
    await drain(kit);
    expect(old.received).toHaveLength(0);
    expect(current.received).toHaveLength(1);
  });

  it('signs with the old and the new secret during a rotation, the new one alone after the overlap', async () => {
    const kit = await startWebhookKit();
    const r = await receiver(() => 200);
    const partner = newPartnerId();
    const oldSecret = await register(kit, partner, r.url);
    const { secret: newSecret } = present(await kit.registrar.rotateSecret(partner), 'rotation');
    await publish(kit, partner, 'R1');
    await drain(kit);
    kit.clock.advance(24 * 3600);
    await publish(kit, partner, 'R2');
    await drain(kit);
    const during = present(r.received[0], 'delivery during the overlap');
    const after = present(r.received[1], 'delivery after the overlap');
    expect((during.headers['webhook-signature'] ?? '').split(' ')).toHaveLength(2);
    expect(independentlyVerified(oldSecret, during.headers, during.body)).toBe(true);
    expect(independentlyVerified(newSecret, during.headers, during.body)).toBe(true);
    expect((after.headers['webhook-signature'] ?? '').split(' ')).toHaveLength(1);
    expect(independentlyVerified(newSecret, after.headers, after.body)).toBe(true);
    expect(independentlyVerified(oldSecret, after.headers, after.body)).toBe(false);
  });

  it('publishing the same event again keeps one stored event and its first time; the partner may get it twice, with one id', async () => {
    const kit = await startWebhookKit();
    const r = await receiver(() => 200);
    const partner = newPartnerId();
    await register(kit, partner, r.url);
    const firstAt = kit.clock.now().toISOString();
    await publish(kit, partner, 'T1');
    kit.clock.advance(60);
    await publish(kit, partner, 'T1');
    expect(kit.queue.sent.map((s) => s.message.createdAt)).toEqual([firstAt, firstAt]);
    await drain(kit);
    expect(r.received.length).toBeGreaterThanOrEqual(1);
    expect(new Set(r.received.map((q) => q.headers['webhook-id'])).size).toBe(1);
  });

  it('never puts a secret, the body or the URL into its log lines', async () => {
    const kit = await startWebhookKit();
    const r = await receiver((n) => (n === 1 ? 500 : 200));
    const partner = newPartnerId();
    const secret = await register(kit, partner, `${r.url}/path-token`);
    await publish(kit, partner, 'L1');
    const outcomes = await drain(kit);
    for (const line of outcomes) {
      expect(line).not.toContain(secret);
      expect(line).not.toContain(secret.slice('whsec_'.length));
      expect(line).not.toContain('path-token');
      expect(line).not.toContain('net_sales');
    }
  });
});
