import { afterEach, describe, expect, it } from 'vitest';
import { deliveryPolicy } from '../../../src/events/DeliveryPolicy.js';
import { eventIdFor } from '../../../src/events/eventIdFor.js';
import type { MetricName } from '../../../src/observability/Telemetry.js';
import { DeadLetterActions } from '../../../src/services/webhooks/DeadLetterActions.js';
import { LostDeliveryWatch } from '../../../src/services/webhooks/LostDeliveryWatch.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.js';
import { newPartnerId, startWebhookKit, type WebhookKit } from './webhookKit.js';

const opened: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((r) => r.close()));
});

/** Before every other test's events (they start in 2026), so that this watch's scan meets only this file's. */
const start = Date.parse('2019-06-01T00:00:00Z');

function recording() {
  const lines: { name: MetricName; value: number; dims: unknown }[] = [];
  return { lines, telemetry: { metric: (name: MetricName, value: number, dims?: unknown) => lines.push({ name, value, dims }) } };
}

async function publishLost(kit: WebhookKit, partnerId: string, storeId: string): Promise<string> {
  const id = eventIdFor([partnerId, 'batch.failed', storeId, 'lost']);
  await kit.publisher.publish(partnerId, { id, type: 'batch.failed', source: '/pos/v1/trade-records', time: kit.clock.now(), data: {} });
  // Its delivery message is lost: expired in the poison queue, deleted, or cleared with the queue.
  expect(kit.queue.takeVisible()).toHaveLength(1);
  return id;
}

describe('LostDeliveryWatch', () => {
  it('dead-letters an event whose delivery message is gone once its retries are long over, for HQ to send again', async () => {
    const kit = await startWebhookKit();
    kit.clock.ms = start;
    const receiver = await startWebhookReceiver(() => 200);
    opened.push(receiver);
    const partner = newPartnerId();
    await kit.registrar.register(partner, { url: receiver.url, eventTypes: ['batch.failed'] });
    const eventId = await publishLost(kit, partner, 'S1');
    const watch = new LostDeliveryWatch({ ...kit, policy: deliveryPolicy, clock: kit.clock.now });

    // Within its retries (and the time a last message may still come): left alone.
    kit.clock.advance(27 * 3600);
    expect(await watch.run(recording().telemetry)).toEqual({ deadLettered: 0, dropped: 0 });
    expect(await kit.deadLetters.get(partner, eventId)).toBeUndefined();

    kit.clock.advance(1);
    const { lines, telemetry } = recording();
    expect(await watch.run(telemetry)).toEqual({ deadLettered: 1, dropped: 0 });
    expect(lines).toEqual([
      { name: 'webhook_dead_letter', value: 1, dims: { partner, event: eventId, type: 'batch.failed', error: 'DELIVERY_LOST' } },
    ]);
    expect(await kit.deadLetters.get(partner, eventId)).toEqual({
      partnerId: partner,
      eventId,
      eventType: 'batch.failed',
      targetOrigin: new URL(receiver.url).origin,
      attempts: 0,
      lastErrorClass: 'DELIVERY_LOST',
      createdAt: new Date(start).toISOString(),
      deadLetteredAt: kit.clock.now().toISOString(),
    });
    // Once: the next run finds the dead letter.
    expect(await watch.run(recording().telemetry)).toEqual({ deadLettered: 0, dropped: 0 });

    // HQ sends it again, and it is delivered with its own id.
    const actions = new DeadLetterActions({ ...kit, clock: kit.clock.now });
    expect(await actions.resend(partner, eventId)).toBe('queued');
    const [message] = kit.queue.takeVisible();
    expect(await kit.delivery.deliver(message!)).toContain('delivered');
    expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([eventId]);
  });

  it('leaves an event HQ sent again to its new window of attempts', async () => {
    const kit = await startWebhookKit();
    kit.clock.ms = start;
    const partner = newPartnerId();
    await kit.registrar.register(partner, { url: 'http://127.0.0.1:9/hooks', eventTypes: ['batch.failed'] });
    const eventId = await publishLost(kit, partner, 'S3');
    const watch = new LostDeliveryWatch({ ...kit, policy: deliveryPolicy, clock: kit.clock.now });
    kit.clock.advance(28 * 3600);
    expect(await watch.run(recording().telemetry)).toEqual({ deadLettered: 1, dropped: 0 });

    // Resent two days later; its message is being retried (the endpoint still fails) when the watch runs.
    kit.clock.advance(2 * 24 * 3600);
    const actions = new DeadLetterActions({ ...kit, clock: kit.clock.now });
    expect(await actions.resend(partner, eventId)).toBe('queued');
    expect(kit.queue.takeVisible()).toHaveLength(1);
    kit.clock.advance(3600);
    expect(await watch.run(recording().telemetry)).toEqual({ deadLettered: 0, dropped: 0 });
    expect(await kit.deadLetters.get(partner, eventId)).toBeUndefined();
    // Its new window over and its message lost too: given up again.
    kit.clock.advance(27 * 3600);
    expect(await watch.run(recording().telemetry)).toEqual({ deadLettered: 1, dropped: 0 });
  });

  it('reads the dead letters in one listing, not one read per given-up event', async () => {
    const kit = await startWebhookKit();
    kit.clock.ms = start;
    const partner = newPartnerId();
    await kit.registrar.register(partner, { url: 'http://127.0.0.1:9/hooks', eventTypes: ['batch.failed'] });
    for (let i = 0; i < 20; i++) await publishLost(kit, partner, `K${i}`);
    kit.clock.advance(28 * 3600);
    const first = new LostDeliveryWatch({ ...kit, policy: deliveryPolicy, clock: kit.clock.now });
    expect((await first.run(recording().telemetry)).deadLettered).toBeGreaterThanOrEqual(20);
    // Kept until HQ resends or dismisses them: the next runs meet them all again.
    let pointReads = 0;
    const counted = {
      listIds: () => kit.deadLetters.listIds(),
      add: (d: Parameters<typeof kit.deadLetters.add>[0]) => kit.deadLetters.add(d),
      get: (partnerId: string, eventId: string) => {
        pointReads += 1;
        return kit.deadLetters.get(partnerId, eventId);
      },
    };
    const next = new LostDeliveryWatch({ ...kit, deadLetters: counted, policy: deliveryPolicy, clock: kit.clock.now });
    kit.clock.advance(3600);
    expect(await next.run(recording().telemetry)).toEqual({ deadLettered: 0, dropped: 0 });
    expect(pointReads).toBe(0);
  });

  it('drops a lost event that no endpoint takes any more, as its delivery would', async () => {
    const kit = await startWebhookKit();
    kit.clock.ms = start;
    const partner = newPartnerId();
    await kit.registrar.register(partner, { url: 'http://127.0.0.1:9/hooks', eventTypes: ['batch.failed'] });
    const eventId = await publishLost(kit, partner, 'S2');
    await kit.registrar.remove(partner);
    kit.clock.advance(28 * 3600);
    const watch = new LostDeliveryWatch({ ...kit, policy: deliveryPolicy, clock: kit.clock.now });
    expect(await watch.run(recording().telemetry)).toEqual({ deadLettered: 0, dropped: 1 });
    expect(await kit.events.get(partner, eventId)).toBeUndefined();
    expect(await kit.deadLetters.get(partner, eventId)).toBeUndefined();
  });
});
