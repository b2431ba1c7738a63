/**
 * Webhooks end to end, as a partner sees them: the local host (same function table as Azure) on
 * the storage emulator, the partner's receiver on https with its own certificate authority, a
 * host name the service resolves (to loopback, allowed here) and checks before connecting.
 * A day pushed and closed arrives as a signed CloudEvent whose data is the GET result; a late
 * batch changes the day and sends reconciliation.changed; an endpoint that keeps failing is
 * retried, then dead-lettered where the HQ tool lists it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudEventContentType, type CloudEvent } from '../../src/events/CloudEvent.js';
import { WebhookSecret } from '../../src/events/WebhookSecret.js';
import { verifyWebhook } from '../../src/events/verifyWebhook.js';
import { webhookOf } from '../support/responseBodies.js';
import { eventually, startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { makeTestCertificates } from '../support/testCertificates.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { independentlyVerified } from '../services/webhooks/webhookKit.js';
import { pointerToken, specValidator } from '../openapi/specAjv.js';
import { getResult, push, sendClose, settled, setUpPartner } from './support/partnerFlow.js';
import { controlTotals, dailyClose, POS_CODES, tradeBatch } from './support/storeDayKit.js';
import { buildRecord, USD } from '../fixtures/tradeRecordFixtures.js';

const hostName = 'hooks.partner.test';
let service: TestService;
let healthy: WebhookReceiver;
let failing: WebhookReceiver;
let certificates: ReturnType<typeof makeTestCertificates>;

beforeAll(async () => {
  certificates = makeTestCertificates(hostName);
  healthy = await startWebhookReceiver(() => 200, { tls: certificates.server, hostName });
  failing = await startWebhookReceiver(() => ({ status: 500, body: 'receiver broke' }), { tls: certificates.server, hostName });
  service = await startTestService({
    settings: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    services: {
      webhookResolver: (name) => (name === hostName ? Promise.resolve(['127.0.0.1']) : Promise.reject(new Error('unknown host'))),
      webhookCa: certificates.ca,
      // A day of retries in seconds: every second, given up 8 seconds after the event.
      webhookPolicy: {
        attemptTimeoutMs: 3_000,
        firstRetrySeconds: 1,
        maxRetrySeconds: 1,
        maxAgeSeconds: 8,
        jitter: 0,
        pauseSpreadSeconds: 0,
      },
    },
  });
});
afterAll(async () => {
  await service.stop();
  await Promise.all([healthy.close(), failing.close()]);
});

async function subscribe(partner: TestPartner, receiver: WebhookReceiver): Promise<string> {
  const answer = await service.call(partner, 'PUT', 'webhook', {
    url: `${receiver.url}/${partner.partnerId}?channel=pos`,
    event_types: ['reconciliation.completed', 'reconciliation.changed'],
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return webhookOf(answer).secret ?? '';
}

const requestsFor = (receiver: WebhookReceiver, partner: TestPartner) =>
  receiver.received.filter((r) => r.path === `/hooks/${partner.partnerId}?channel=pos`);

describe('webhooks over https', () => {
  it('a closed day arrives as a signed CloudEvent holding the GET result; a late batch sends reconciliation.changed', async () => {
    const { partner, days } = await setUpPartner(service, [USD]);
    const day = days[0]!;
    const secret = await subscribe(partner, healthy);
    const sold = [1, 2, 3].map((n) =>
      buildRecord(day, { id: `WH-${n}`, code: 'S01', items: [{ product: 'X1', name: 'Item', qty: n, unit: 990 }], tip: 100 * n }),
    );
    await push(service, partner, tradeBatch(day, 1, sold.slice(0, 2)));
    await sendClose(service, partner, dailyClose(day, 2, controlTotals(USD, sold, { mapping: POS_CODES })));
    const first = await settled(service, partner, day);
    expect(first.status).toBe('MISMATCHED');

    const [completed] = await eventually(
      () => Promise.resolve(requestsFor(healthy, partner)),
      (r) => r.length >= 1,
    );
    expect(completed).toBeDefined();
    const request = completed!;
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe(cloudEventContentType);
    expect(independentlyVerified(secret, request.headers, request.body)).toBe(true);
    const verdict = verifyWebhook({
      headers: request.headers,
      body: request.body,
      secrets: [WebhookSecret.parse(secret)!],
      now: new Date(),
    });
    expect(verdict.ok).toBe(true);
    const event = JSON.parse(request.body.toString('utf8')) as CloudEvent<unknown>;
    expect(event).toMatchObject({
      specversion: '1.0',
      id: request.headers['webhook-id'],
      source: '/pos/v1/daily-close',
      type: 'com.example.pos.reconciliation.completed',
      subject: `${day.storeId}/${day.businessDate}`,
      time: first.checked_at,
      datacontenttype: 'application/json',
    });
    expect(event.data).toEqual(first);

    // The missing transaction arrives late, with no new close: the day is reconciled again.
    await push(service, partner, tradeBatch(day, 2, sold.slice(2)));
    const second = await settled(service, partner, day, (r) => r.checked_at !== first.checked_at);
    expect(second.status).toBe('MATCHED');
    const all = await eventually(
      () => Promise.resolve(requestsFor(healthy, partner)),
      (r) => r.length >= 3,
    );
    const events = all.map((r) => JSON.parse(r.body.toString('utf8')) as CloudEvent<unknown>);
    // The first run's event comes first; the two events of the second run carry no order.
    expect(events).toHaveLength(3);
    expect(events[0]?.type).toBe('com.example.pos.reconciliation.completed');
    expect(
      events
        .slice(1)
        .map((e) => e.type)
        .sort(),
    ).toEqual(['com.example.pos.reconciliation.changed', 'com.example.pos.reconciliation.completed']);
    const now = await getResult(service, partner, day);
    expect(events.slice(1).map((e) => e.data)).toEqual([now, now]);
    // Each is the event the API document the service serves describes under the event's name.
    const served = await service.call(null, 'GET', 'openapi.json');
    const schemaAt = specValidator(served.body as object);
    for (const event of events) {
      const name = event.type.slice('com.example.pos.'.length);
      const validate = schemaAt(`/webhooks/${pointerToken(name)}/post/requestBody/content/application~1cloudevents+json/schema`);
      expect(validate(event), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(all.every((r) => independentlyVerified(secret, r.headers, r.body))).toBe(true);

    // Each delivery is measured in the log, with no URL, body or secret.
    const metrics = service.logs.filter((l) => l.includes('metric webhook_delivery') && l.includes(`partner=${partner.partnerId}`));
    expect(metrics.filter((l) => l.includes('outcome=delivered attempt=1'))).toHaveLength(3);
    const lines = service.logs.join('\n');
    expect(lines).not.toContain(secret.slice('whsec_'.length));
    expect(lines).not.toContain(hostName);
  });

  it('an endpoint that keeps failing gets the same event again and again, then HQ finds it dead-lettered', async () => {
    const { partner, days } = await setUpPartner(service, [USD]);
    const day = days[0]!;
    const secret = await subscribe(partner, failing);
    const sold = [buildRecord(day, { id: 'DL-1', code: 'S01', items: [{ product: 'X1', name: 'Item', qty: 1, unit: 500 }] })];
    await push(service, partner, tradeBatch(day, 1, sold));
    await sendClose(service, partner, dailyClose(day, 1, controlTotals(USD, sold, { mapping: POS_CODES })));
    await settled(service, partner, day);

    const listed = await eventually(
      () => service.hq('webhook', 'failures', '--partner', partner.partnerId),
      (r) => r.out.length >= 2,
      30_000,
    );
    const attempts = requestsFor(failing, partner);
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    const eventId = attempts[0]?.headers['webhook-id'];
    expect(new Set(attempts.map((r) => r.headers['webhook-id']))).toEqual(new Set([eventId]));
    expect(attempts.every((r) => independentlyVerified(secret, r.headers, r.body))).toBe(true);

    expect(listed.code).toBe(0);
    expect(listed.out).toHaveLength(2);
    const [, row] = listed.out;
    const [, partnerId, listedEvent, type, count, error, , , target] = row!.split('\t');
    expect({ partnerId, listedEvent, type, error, target }).toEqual({
      partnerId: partner.partnerId,
      listedEvent: eventId,
      type: 'reconciliation.completed',
      error: 'HTTP_ERROR 500',
      target: `https://${hostName}:${failing.port}`,
    });
    expect(Number(count)).toBe(attempts.length);
    expect(listed.out.join('\n')).not.toMatch(/channel=pos|\/hooks\/|whsec_|receiver broke/);
    expect(
      service.logs.some(
        (l) => l.startsWith('INFO [deliverWebhook] metric webhook_dead_letter 1 ') && l.includes(`partner=${partner.partnerId}`),
      ),
    ).toBe(true);

    // The partner fixes its endpoint; HQ sends the given-up event again: the same id and body.
    const moved = await service.call(partner, 'PUT', 'webhook', {
      url: `${healthy.url}/${partner.partnerId}?channel=pos`,
      event_types: ['reconciliation.completed', 'reconciliation.changed'],
    });
    expect(moved.status).toBe(200);
    const resent = await service.hq('webhook', 'resend', partner.partnerId.toUpperCase(), eventId ?? '');
    expect(resent.code, resent.err.join('\n')).toBe(0);
    const [delivered] = await eventually(
      () => Promise.resolve(requestsFor(healthy, partner)),
      (r) => r.length >= 1,
    );
    expect(delivered?.headers['webhook-id']).toBe(eventId);
    expect(delivered?.body.equals(attempts[0]!.body)).toBe(true);
    expect((await service.hq('webhook', 'failures', '--partner', partner.partnerId)).out).toHaveLength(1);
    expect((await service.hq('webhook', 'resend', partner.partnerId, eventId ?? '')).code).toBe(1);
    expect((await service.hq('webhook', 'dismiss', partner.partnerId, eventId ?? '')).code).toBe(1);
  });

  it('an endpoint that answers 410 Gone is disabled: its GET says so, HQ cannot resend to it until the partner registers it again', async () => {
    let answer = 410;
    const gone = await startWebhookReceiver(() => answer, { tls: certificates.server, hostName });
    try {
      const { partner, days } = await setUpPartner(service, [USD]);
      const day = days[0]!;
      await subscribe(partner, gone);
      const sold = [buildRecord(day, { id: 'GONE-1', code: 'S01', items: [{ product: 'X1', name: 'Item', qty: 1, unit: 500 }] })];
      await push(service, partner, tradeBatch(day, 1, sold));
      await sendClose(service, partner, dailyClose(day, 1, controlTotals(USD, sold, { mapping: POS_CODES })));
      await settled(service, partner, day);

      const shown = await eventually(
        () => service.call(partner, 'GET', 'webhook'),
        (r) => webhookOf(r).disabled_at !== null,
        30_000,
      );
      const validate = specValidator((await service.call(null, 'GET', 'openapi.json')).body as object)('/components/schemas/Webhook');
      expect(validate(shown.body), JSON.stringify(validate.errors)).toBe(true);
      expect(requestsFor(gone, partner)).toHaveLength(1);
      const eventId = requestsFor(gone, partner)[0]?.headers['webhook-id'] ?? '';
      const failures = await service.hq('webhook', 'failures', '--partner', partner.partnerId);
      expect(failures.out[1]?.split('\t')[5]).toBe('GONE 410');
      const hqShow = await service.hq('webhook', 'show', partner.partnerId);
      expect(hqShow.out[1]?.split('\t')[6]).toBe(webhookOf(shown).disabled_at);
      // The list of every endpoint shows the same line, so HQ finds disabled endpoints in one call.
      const listed = await service.hq('webhook', 'list');
      expect(listed.out[0]).toBe(hqShow.out[0]);
      expect(listed.out.filter((line) => line.startsWith(`${partner.partnerId}\t`))).toEqual([hqShow.out[1]]);

      // Resending to a disabled endpoint would only drop the event: refused, the dead letter kept.
      const refused = await service.hq('webhook', 'resend', partner.partnerId, eventId);
      expect(refused.code).toBe(1);
      expect(refused.err.join('\n')).toContain('is disabled (it answered 410 Gone): the partner registers it again');
      expect((await service.hq('webhook', 'failures', '--partner', partner.partnerId)).out).toHaveLength(2);
      // Nor while the partner has no endpoint at all: delivery would drop the event and its body.
      expect((await service.call(partner, 'DELETE', 'webhook')).status).toBe(204);
      const noEndpoint = await service.hq('webhook', 'resend', partner.partnerId, eventId);
      expect(noEndpoint.code).toBe(1);
      expect(noEndpoint.err.join('\n')).toContain('has no webhook endpoint: the partner registers one');
      expect((await service.hq('webhook', 'failures', '--partner', partner.partnerId)).out).toHaveLength(2);

      // Nor to an endpoint that no longer takes the event's type: delivery would drop it too.
      answer = 200;
      const narrowed = await service.call(partner, 'PUT', 'webhook', {
        url: `${gone.url}/${partner.partnerId}`,
        event_types: ['batch.failed'],
      });
      expect(narrowed.status).toBe(201);
      const notTaken = await service.hq('webhook', 'resend', partner.partnerId, eventId);
      expect(notTaken.code).toBe(1);
      expect(notTaken.err.join('\n')).toContain("no longer takes this event's type");
      expect((await service.hq('webhook', 'failures', '--partner', partner.partnerId)).out).toHaveLength(2);

      // The partner fixes its endpoint and registers it again: enabled, and HQ's resend arrives.
      const again = await service.call(partner, 'PUT', 'webhook', {
        url: `${gone.url}/${partner.partnerId}?channel=pos`,
        event_types: ['reconciliation.completed', 'reconciliation.changed'],
      });
      expect(again.status).toBe(200);
      expect(webhookOf(again).disabled_at).toBeNull();
      expect((await service.hq('webhook', 'resend', partner.partnerId, eventId)).code).toBe(0);
      const [, resent] = await eventually(
        () => Promise.resolve(requestsFor(gone, partner)),
        (r) => r.length >= 2,
      );
      expect(resent?.headers['webhook-id']).toBe(eventId);
    } finally {
      await gone.close();
    }
  });

  it("HQ sees a partner's endpoint by its origin alone and can remove it", async () => {
    const { partner } = await setUpPartner(service, [USD]);
    await subscribe(partner, healthy);
    const shown = await service.hq('webhook', 'show', partner.partnerId);
    expect(shown.code).toBe(0);
    expect(shown.out[1]?.split('\t').slice(0, 3)).toEqual([
      partner.partnerId,
      `https://${hostName}:${healthy.port}`,
      'reconciliation.completed,reconciliation.changed',
    ]);
    expect(shown.out.join('\n')).not.toMatch(/channel=pos|\/hooks\/|whsec_/);
    const listed = await service.hq('webhook', 'list');
    expect(listed.out.filter((line) => line.startsWith(`${partner.partnerId}\t`))).toEqual([shown.out[1]]);
    expect(listed.out.join('\n')).not.toMatch(/channel=pos|\/hooks\/|whsec_/);

    expect((await service.hq('webhook', 'remove', partner.partnerId)).code).toBe(0);
    expect((await service.call(partner, 'GET', 'webhook')).status).toBe(404);
    expect((await service.hq('webhook', 'show', partner.partnerId)).code).toBe(1);
    expect((await service.hq('webhook', 'remove', partner.partnerId)).code).toBe(1);
    expect((await service.hq('webhook', 'list')).out.some((line) => line.startsWith(`${partner.partnerId}\t`))).toBe(false);
  });
});
